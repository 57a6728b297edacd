// A type switch or assertion from any to an interface type never matches in yaegi: the kernel
// refuses it with the workaround. Concrete cases, and interface-typed variables, work.
import "fmt"
type celsius float64
func (c celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }
var v any = celsius(21)
// ---
switch x := v.(type) {
case fmt.Stringer:
	fmt.Println("stringer", x)
}
// ---
switch x := v.(type) {
case celsius:
	fmt.Println("celsius", float64(x))
}
var s fmt.Stringer = celsius(3)
fmt.Println(s.String())
// Output:
// Error: Unsupported: cell:1:1: a type switch on an any value with interface-type cases (they never match) is not supported by the interpreter (yaegi v0.16.1); switch on concrete types, or declare the variable with the interface type
// celsius 21
// 3.0°C
