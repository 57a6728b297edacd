// errors.As finds an error whose type a cell declared (the kernel's errors.As sees through
// yaegi's interface wrapper). fmt.Errorf's %w of a value of a cell's type goes through an error
// variable first (the kernel's rewrite): yaegi alone lost the chain, and errors.As said false.
import ("errors"; "fmt")
type notFound struct{ name string }
func (e *notFound) Error() string { return e.name + " not found" }
var base error = &notFound{"model.safetensors"}
err := fmt.Errorf("load: %w", base)
var nf *notFound
fmt.Println(errors.As(err, &nf), nf.name)
var pe interface{ Timeout() bool }
fmt.Println(errors.As(err, &pe))
// ---
// errors.As into a cell's error type that is not a pointer is refused: compiled code gets a
// wrapper of such an error, which errors.As cannot match.
type Missing struct{ Name string }
func (m Missing) Error() string { return m.Name + " missing" }
var m Missing
errors.As(fmt.Errorf("open: %w", Missing{"x"}), &m)
// ---
direct := fmt.Errorf("load: %w", &notFound{"vocab.tok"})
fmt.Println(errors.As(direct, &nf), nf.name)
// Output:
// true model.safetensors
// false
// Error: Unsupported: cell:6:1: errors.As or AsType into a Missing, a cell's error type that is not a pointer (the interpreter hands compiled code a wrapper of such an error, which errors.As cannot match) is not supported by the interpreter (yaegi v0.16.1); give Missing its Error method on *Missing, return &Missing{…}, and pass a *Missing variable's address
// true vocab.tok
