// recover() returns Go's value for a runtime error: the interpreter's own panic (in reflect's
// words, or with its position) becomes Go's runtime error. One whose Go words need numbers the
// interpreter does not keep (an index and a length) ends the cell with an Unsupported error,
// which the program's own recover cannot catch.
import (
	"errors"
	"fmt"
)
func try(name string, f func()) {
	defer func() { fmt.Println(name+":", recover()) }()
	f()
}
type P struct{ x int }
var p *P
var v any = "s"
try("nil", func() { fmt.Println(p.x) })
try("assert", func() { fmt.Println(v.(int)) })
try("div", func() { a, b := 1, 0; fmt.Println(a / b) })
try("custom", func() { panic(errors.New("custom")) })
try("none", func() {})
// ---
defer func() { fmt.Println("outer recover:", recover()) }()
try("index", func() { s := []int{1}; k := 3; fmt.Println(s[k]) })
fmt.Println("not reached")
// Output:
// nil: runtime error: invalid memory address or nil pointer dereference
// assert: interface conversion: interface {} is string, not int
// div: runtime error: integer divide by zero
// custom: custom
// none: <nil>
// Error: Unsupported: cell: recover() of the interpreter's panic "reflect: slice index out of range" (Go's panic value says runtime error: index out of range, with the index and length, which the interpreter does not keep) is not supported by the interpreter (yaegi v0.16.1); check the index or the pointer before using it, rather than recovering
