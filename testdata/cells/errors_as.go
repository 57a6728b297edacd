// errors.As finds an error whose type a cell declared (the kernel's errors.As sees through
// yaegi's interface wrapper). The wrapped error must reach fmt.Errorf as an error value: yaegi
// passes a bare *notFound to %w without its Error method, and the chain is lost.
import ("errors"; "fmt")
type notFound struct{ name string }
func (e *notFound) Error() string { return e.name + " not found" }
var base error = &notFound{"model.safetensors"}
err := fmt.Errorf("load: %w", base)
var nf *notFound
fmt.Println(errors.As(err, &nf), nf.name)
var pe interface{ Timeout() bool }
fmt.Println(errors.As(err, &pe))
// Output:
// true model.safetensors
// false
