// A value of a cell's type stored in an interface is a copy, as in Go: changing the variable
// afterwards does not reach the interface (the kernel copies it; yaegi alone shared it). Stored
// in any, it prints as the value (yaegi alone printed an internal record).
import "fmt"
type Shape interface{ Area() int }
type Sq struct{ side int }
func (q Sq) Area() int { return q.side * q.side }
func areas(shapes ...Shape) []int {
	var out []int
	for _, s := range shapes {
		out = append(out, s.Area())
	}
	return out
}
sq := Sq{2}
var s Shape = sq
list := []Shape{sq}
var later Shape
later = sq
var box any = sq
converted := Shape(sq)
sq.side = 10
fmt.Println(s.Area(), list[0].Area(), later.Area(), converted.Area(), sq.Area())
fmt.Println(box, areas(sq, Sq{3}))
m := map[string]any{"a": sq}
fmt.Println(m)
// ---
// A nil pointer of a cell's type stored in an interface with methods is refused when it
// happens: Go keeps the pointer's type, so the interface is not nil, and the interpreter cannot.
type MyErr struct{}
func (e *MyErr) Error() string { return "my error" }
func check(fail bool) error {
	var p *MyErr
	if fail {
		p = &MyErr{}
	}
	return p
}
fmt.Println(check(true))
fmt.Println(check(false) == nil)
// Output:
// 4 4 4 4 100
// {2} [100 9]
// map[a:{10}]
// my error
// Error: Unsupported: cell:10:9: a nil *MyErr stored as error (Go keeps the pointer's type, so the interface is not nil; the interpreter stores a nil interface, and err == nil would be true) is not supported by the interpreter (yaegi v0.16.1); return or store nil itself where you mean no value: if p == nil { return nil }
