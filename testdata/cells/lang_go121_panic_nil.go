// panic(nil) (Go 1.21) panics with a *runtime.PanicNilError, so recover() is not nil: the
// kernel passes a panic argument that may be nil through a prelude function that makes it one.
import ("errors"; "fmt")

func try(v any) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println("recovered:", r)
		}
	}()
	panic(v)
}
try(nil)
try(errors.New("an error"))
var err error
try(err)
// ---
panic(nil)
// Output:
// recovered: panic called with nil argument
// recovered: an error
// recovered: panic called with nil argument
// Error: Panic: panic called with nil argument
