// A compile error is reported at the cell's own line and column.
import "fmt"
a := 1
fmt.Println(a +
	undefinedName)
// Output:
// Error: CompileError: cell:5:2: undefined: undefinedName
