// A method value with a value receiver copies its receiver where it is evaluated, as in Go:
// later changes of the variable do not reach it. With a pointer receiver it shares the
// variable, in Go and here.
import "fmt"
type rect struct{ w, h int }
func (r rect) perim() int { return 2*r.w + 2*r.h }
func (r *rect) area() int { return r.w * r.h }
r := rect{20, 10}
perim := r.perim
area := r.area
p := &r
fromPtr := p.perim
r.w = 1
fmt.Println(perim(), fromPtr(), r.perim(), area())
// ---
func callbacks() []int {
	var fs []func() int
	q := rect{1, 1}
	for i := 0; i < 3; i++ {
		q.w = i
		fs = append(fs, q.perim)
	}
	var out []int
	for _, f := range fs {
		out = append(out, f())
	}
	return out
}
callbacks()
// ---
// Among the values of a parallel assignment the kernel cannot copy the receiver: refused.
f, g := r.perim, r.area
// Output:
// 60 60 22 10
// Out: [2 4 6]
// Error: Unsupported: cell:2:9: a method value with a value receiver (r.perim) among the values of a parallel assignment (the interpreter would not copy the receiver, so later changes would reach it) is not supported by the interpreter (yaegi v0.16.1); assign it on a line of its own: f := r.perim
