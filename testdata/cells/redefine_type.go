// Running the same type declaration again is fine (a cell run twice); changing it is an error,
// because yaegi would silently keep the old definition.
type point struct{ X int }
// ---
type point struct{ X int }
point{1}
// ---
type point struct{ X, Y int }
// Output:
// Out: {1}
// Error: Unsupported: cell:1:6: redefining type point (the interpreter would silently keep the old definition) is not supported by the interpreter (yaegi v0.16.1); give the new type another name, or restart the kernel
