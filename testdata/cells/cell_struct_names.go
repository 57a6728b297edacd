// yaegi v0.16.1 builds a cell's struct type with reflect, which cannot make unexported fields
// or mark a field embedded: it exports them (x becomes Xx) and names the type by its struct
// literal. %v prints the values as Go does; what would print or read the other names is refused:
// %+v, %#v and %T of a cell's type, and encoding/json, xml, gob and reflect on such a struct.
import (
	"encoding/json"
	"fmt"
	"reflect"
)
type point struct{ x, y int }
type Label struct{ Text string }
p := point{1, 2}
fmt.Printf("%v %d%%\n", p, 5)
// ---
fmt.Printf("%+v\n", p)
// ---
s := fmt.Sprintf("%d %T", 1, p)
// ---
bs, _ := json.Marshal(p)
// ---
reflect.TypeOf(p).NumField()
// ---
bs, _ := json.Marshal(Label{"ok"})
fmt.Printf("%s %T\n", bs, bs)
// Output:
// {1 2} 5%
// Error: Unsupported: cell:1:1: %+v of point, a type a cell declares (the interpreter's types print other field and type names, and hide a GoString method) is not supported by the interpreter (yaegi v0.16.1); print with %v, or print the fields yourself
// Error: Unsupported: cell:1:6: %T of point, a type a cell declares (the interpreter's types print other field and type names, and hide a GoString method) is not supported by the interpreter (yaegi v0.16.1); print with %v, or print the fields yourself
// Error: Unsupported: cell:1:10: json.Marshal of point, a cell's struct with an unexported field x (the interpreter builds cell structs with every field exported and none embedded, so json.Marshal would not see what Go sees) is not supported by the interpreter (yaegi v0.16.1); export the fields, name the embedded ones, or convert to a struct type with only exported fields
// Error: Unsupported: cell:1:1: reflect.TypeOf of point, a cell's struct with an unexported field x (the interpreter builds cell structs with every field exported and none embedded, so reflect.TypeOf would not see what Go sees) is not supported by the interpreter (yaegi v0.16.1); export the fields, name the embedded ones, or convert to a struct type with only exported fields
// {"Text":"ok"} []uint8
