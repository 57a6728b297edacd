// encoding/json names the struct that holds a field in its type errors. A cell's structs are
// unnamed to reflect, so the kernel passes their names along (jsonerrors.go) and the error reads
// as Go's.
import (
	"encoding/json"
	"fmt"
	"strings"
)
type Inner struct{ Count int `json:"count"` }
type Resp struct {
	Page  int      `json:"page"`
	Items []Inner  `json:"items"`
	Child *Inner
}
var r Resp
fmt.Println(json.Unmarshal([]byte(`{"page":"x"}`), &r))
fmt.Println(json.Unmarshal([]byte(`{"items":[{"count":"y"}]}`), &r))
fmt.Println(json.Unmarshal([]byte(`{"Child":{"count":true}}`), &r))
dec := json.NewDecoder(strings.NewReader(`{"page":[1]}`))
fmt.Println(dec.Decode(&r))
var n int
fmt.Println(json.Unmarshal([]byte(`"s"`), &n))
fmt.Println(json.Unmarshal([]byte(`{"page":2}`), &r), r.Page)
// Output:
// json: cannot unmarshal string into Go struct field Resp.page of type int
// json: cannot unmarshal string into Go struct field Inner.items.count of type int
// json: cannot unmarshal bool into Go struct field Inner.Child.count of type int
// json: cannot unmarshal array into Go struct field Resp.page of type int
// json: cannot unmarshal string into Go value of type int
// <nil> 2
