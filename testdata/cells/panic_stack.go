// A runtime panic reports the value and the interpreted call stack in cell coordinates.
func inner(xs []int) int { return xs[5] }
func outer() int { return inner([]int{1, 2}) }
outer()
// Output:
// Error: Panic: runtime error: index out of range (reflect: slice index out of range)
