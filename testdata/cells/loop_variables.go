// Each iteration has its own loop variable (Go 1.22): closures see 0 1 2, not 3 3 3.
import "fmt"

var fs []func()
for i := 0; i < 3; i++ {
	fs = append(fs, func() { fmt.Print(i, " ") })
}
for _, v := range []string{"a", "b"} {
	fs = append(fs, func() { fmt.Print(v, " ") })
}
for _, f := range fs {
	f()
}
fmt.Println()
// Output:
// 0 1 2 a b 
