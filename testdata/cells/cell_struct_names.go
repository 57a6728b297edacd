// A documented exception: yaegi v0.16.1 builds a cell's struct type with reflect, which cannot
// make unexported fields, so it exports them with an X in front (x becomes Xx). %v prints the
// values as Go does; %+v and %#v print the renamed fields, and %#v and %T the struct literal
// instead of main.point. Encoding such a value with encoding/json, xml or gob, which would
// write the renamed fields where Go writes none, is refused.
import (
	"encoding/json"
	"fmt"
)
type point struct{ x, y int }
type Label struct{ Text string }
p := point{1, 2}
fmt.Printf("%v\n%+v\n%#v\n%T\n", p, p, p, p)
// ---
bs, _ := json.Marshal(p)
// ---
bs, _ := json.Marshal(Label{"ok"})
fmt.Println(string(bs))
// Output:
// {1 2}
// {Xx:1 Xy:2}
// struct { Xx int; Xy int }{Xx:1, Xy:2}
// struct { Xx int; Xy int }
// Error: Unsupported: cell:1:10: json.Marshal of point, a cell's struct with unexported field x (the interpreter exports such fields, so json.Marshal would write it; Go leaves it out) is not supported by the interpreter (yaegi v0.16.1); export the fields to encode, or convert to a struct type with only those fields
// {"Text":"ok"}
