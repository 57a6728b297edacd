// A type switch on a value of a non-empty interface type (an error, a fmt.Stringer, a cell's
// interface) matches a cell's pointer types and nil as Go does: the kernel writes it as a
// chain of type assertions (yaegi alone matched none of them, with no error). Asserting from
// such a value to a cell's interface, an interface literal or a cell's non-pointer type, which
// yaegi answers wrongly, is refused.
import (
	"fmt"
	"io"
)
type notFound struct{ name string }
func (e *notFound) Error() string { return e.name + " not found" }
type named interface{ Name() string }
type dog struct{}
func (*dog) Name() string { return "rex" }
func (*dog) String() string { return "dog" }
func kind(err error) string {
	switch e := err.(type) {
	case nil:
		return "ok"
	case *notFound:
		return "missing " + e.name
	default:
		return "other: " + e.Error()
	}
}
func describe(n named) string {
	switch n.(type) {
	case nil:
		return "nobody"
	case fmt.Stringer:
		return "a stringer"
	}
	return "someone"
}
fmt.Println(kind(nil), "|", kind(&notFound{"x"}), "|", kind(io.EOF))
fmt.Println(describe(nil), "|", describe(&dog{}))
// ---
var s fmt.Stringer = &dog{}
n, ok := s.(named)
// ---
type plainErr struct{ code int }
func (e plainErr) Error() string { return fmt.Sprint("code ", e.code) }
var err error = plainErr{7}
pe, isPlain := err.(plainErr)
// Output:
// ok | missing x | other: EOF
// nobody | a stringer
// Error: Unsupported: cell:2:12: a type assertion to the interface named from a value of interface type fmt.Stringer (the interpreter answers no where Go answers yes) is not supported by the interpreter (yaegi v0.16.1); assert to the concrete types, or call the method through a compiled interface such as fmt.Stringer
// Error: Unsupported: cell:4:20: a type assertion to plainErr, a cell's type that is not a pointer, from a value of interface type error (the interpreter does not match it) is not supported by the interpreter (yaegi v0.16.1); give the type pointer methods and assert to *plainErr, or use errors.As with a *plainErr
