// yaegi cannot type a global initialized by a generic call; the kernel says so and how to write
// it. Declared first and then assigned, or inside a function, the same call works.
import ("fmt"; "slices")
xs := []int{3, 1, 2}
// ---
m := slices.Max(xs)
// ---
var m2 int = slices.Max(xs)
// ---
var m int
m = slices.Max(xs)
func biggest(v []int) int { b := max(v[0], v[1]); return b }
fmt.Println(m, biggest(xs), min(4, 2))
// Output:
// Error: Unsupported: cell:1:6: x := slices.Max(…) at the top level of a cell (yaegi cannot type a global initialized by a generic call) is not supported by the interpreter (yaegi v0.16.1); declare it, then assign: var x T; x = slices.Max(…)
// Error: Unsupported: cell:1:14: x := slices.Max(…) at the top level of a cell (yaegi cannot type a global initialized by a generic call) is not supported by the interpreter (yaegi v0.16.1); declare it, then assign: var x T; x = slices.Max(…)
// 3 3 2
