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
// Output:
// 60 60 22 10
// Out: [2 4 6]
