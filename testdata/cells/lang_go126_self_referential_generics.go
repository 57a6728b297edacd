// A generic type may refer to itself in its type parameter list (Go 1.26). yaegi cannot infer
// A in sum(…) through such a constraint; the kernel writes the inferred type argument out.
import "fmt"

type Adder[A Adder[A]] interface{ Add(A) A }
type num int
func (n num) Add(m num) num { return n + m }
func sum[A Adder[A]](xs ...A) A {
	var s A
	for _, x := range xs {
		s = s.Add(x)
	}
	return s
}
fmt.Println(sum(num(1), num(2), num(3)))
// Output:
// 6
