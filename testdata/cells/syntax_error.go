// Syntax errors are sorted by position, in the cell's coordinates.
x := 1 +
y := )
// Output:
// Error: SyntaxError: cell:3:3: expected ';', found ':='
