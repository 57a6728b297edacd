// A field of a nil pointer panics with Go's words (yaegi's own are about reflect).
type model struct{ layers int }
var m *model
m.layers
// Output:
// Error: Panic: runtime error: invalid memory address or nil pointer dereference (reflect: call of reflect.Value.Field on zero Value)
