// Range over a function (Go 1.23 iterators) is not supported: a clear error with the workaround.
func count(yield func(int) bool) {
	for i := 0; i < 3; i++ {
		if !yield(i) {
			return
		}
	}
}
for v := range count {
	println(v)
}
// ---
import "iter"
// Output:
// Error: Unsupported: cell:9:1: range over a function (iterators, Go 1.23) is not supported by the interpreter (yaegi v0.16.1); call it with a yield callback instead: f(func(v T) bool { …; return true })
// Error: Unsupported: cell:1:8: package iter (range-over-func iterators, Go 1.23) is not supported by the interpreter (yaegi v0.16.1); return a slice, or pass a callback: seq(func(v T) bool { …; return true })
