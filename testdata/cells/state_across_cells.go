// Variables, functions and imports survive from one cell to the next; an import seen again is
// dropped instead of failing as "redeclared".
import "fmt"
x := 40
// ---
import "fmt"
func add(a, b int) int { return a + b }
fmt.Println(add(x, 2))
// ---
x++
x
// Output:
// 42
// Out: 41
