// switch x := v.(type) is rewritten so that it matches values whose type has methods and
// compiles at the top level of a cell (yaegi v0.16.1 gets both wrong).
import "fmt"
type celsius float64
func (c celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }
func describe(v any) string {
	switch x := v.(type) {
	case celsius:
		return "celsius " + x.String()
	case int, string:
		return fmt.Sprint("int or string ", x)
	case nil:
		return "nil"
	default:
		return fmt.Sprintf("other %T", x)
	}
}
fmt.Println(describe(celsius(21)), "|", describe(3), "|", describe(nil), "|", describe(2.5))
var v any = celsius(-4)
switch t := v.(type) {
case celsius:
	fmt.Println("top level", t)
}
// Output:
// celsius 21.0°C | int or string 3 | nil | other float64
// top level -4.0°C
