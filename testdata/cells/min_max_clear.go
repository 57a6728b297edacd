// The Go 1.21 builtins min, max and clear come from the kernel's prelude.
import "fmt"

x := 2.5
fmt.Println(min(3, 1, 2), max(3, 1, 2), min(3, x), max(x, 4), min("b", "a"))
m := map[string]int{"a": 1, "b": 2}
s := []int{1, 2, 3}
clear(m)
clear(s)
fmt.Println(len(m), s)

// On a named type of a compiled package, and of the cell.
import "time"
d := 5 * time.Second
fmt.Println(min(d, time.Second), max(time.Millisecond, d, 2*time.Second), min(d))
type celsius float64
fmt.Println(max(celsius(3), 7))
// Output:
// 1 3 2.5 4 a
// 0 [0 0 0]
// 1s 5s 5s
// 7
