// Functions and types of a cell are declared before its statements run, as in a Go package: a
// function declared below a statement that fails is still there for the next cell.
import "fmt"
var m map[string]int
m["boom"] = 1
func check(ok bool) string {
	if ok {
		return "right"
	}
	return "not yet"
}
// ---
fmt.Println(check(true))
// Output:
// Error: Panic: assignment to entry in nil map
// right
