// Generic functions with one type parameter work; two or more are refused with a clear error.
import "fmt"
func double[T int | float64](x T) T { return 2 * x }
fmt.Println(double(21), double(1.25))
// ---
func mapTo[T, U any](xs []T, f func(T) U) []U {
	var out []U
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
// Output:
// 42 2.5
// Error: Unsupported: cell:1:6: a generic function with two or more type parameters (mapTo) is not supported by the interpreter (yaegi v0.16.1); write it for the concrete types you need, or with a single type parameter
