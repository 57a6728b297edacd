// encoding/json calls a MarshalJSON method of the value and of every element and field inside it.
// The interpreter gives the encoder a cell type's methods on the value alone: inside a struct,
// slice or map they are refused rather than skipped.
import (
	"encoding/json"
	"fmt"
)
type Celsius float64
func (c Celsius) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`"%.1f°C"`, float64(c))), nil
}
type Reading struct {
	Where string
	Temp  Celsius
}
b, err := json.Marshal(Celsius(21.5))
fmt.Println(string(b), err)
// ---
json.Marshal(Reading{"lab", 19})
// ---
json.Marshal([]Celsius{1, 2})
// Output:
// "21.5°C" <nil>
// Error: Unsupported: cell:1:1: json.Marshal of Reading (its Celsius values), whose MarshalJSON method Go's encoder calls (the interpreter hides a cell type's methods inside slices, arrays, maps and fields) is not supported by the interpreter (yaegi v0.16.1); encode or decode those values one by one, or convert them to plain values first
// Error: Unsupported: cell:1:1: json.Marshal of []Celsius (its Celsius values), whose MarshalJSON method Go's encoder calls (the interpreter hides a cell type's methods inside slices, arrays, maps and fields) is not supported by the interpreter (yaegi v0.16.1); encode or decode those values one by one, or convert them to plain values first
