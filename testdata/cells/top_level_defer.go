// A defer at the top of a cell runs when the cell ends, with the arguments it had when the
// defer statement ran, and only then (yaegi alone would run it again after every later cell).
import "fmt"
n := 1
defer fmt.Println("deferred, n was", n)
n = 2
fmt.Println("body, n is", n)
// ---
fmt.Println("next cell")
// Output:
// body, n is 2
// deferred, n was 1
// next cell
