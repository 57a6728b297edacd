// Go 1.21's type inference: untyped constants of different kinds (add(1, 2.5) is 3.5), a
// generic function passed or assigned as a value, type arguments inferred from an interface's
// methods. yaegi infers from the first argument only; the kernel writes the inferred type
// arguments out (add[float64](1, 2.5)).
import "fmt"

func add[T int | float64](a, b T) T { return a + b }
func double[T ~int | ~float64](x T) T { return 2 * x }
func apply(s []int, f func(int) int) []int {
	for i := range s {
		s[i] = f(s[i])
	}
	return s
}
type Getter[T any] interface{ Get() T }
func get[T any](g Getter[T]) T { return g.Get() }
type box struct{}
func (box) Get() int { return 7 }
// ---
fmt.Println(add(1, 2.5), add(1, 2))
// ---
fmt.Println(apply([]int{1, 2}, double))
var f func(float64) float64 = double
fmt.Println(f(1.25))
// ---
fmt.Println(get(box{}))
// ---
func id[T any](x T) T { return x }
func twice[T any](x T) []T { return []T{id(x), id(x)} }
v := id(5)
fmt.Println(v, twice("a"))
// Output:
// 3.5 3
// [2 4]
// 2.5
// 7
// 5 [a a]
