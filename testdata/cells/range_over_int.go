// for i := range n (Go 1.22) is rewritten to a three-clause loop: literal, variable, len(),
// a function parameter, and a typed integer whose type the loop variable keeps.
import "fmt"

for i := range 3 {
	fmt.Print(i, " ")
}
fmt.Println()
n := 2
for range n {
	fmt.Print("x")
}
fmt.Println()

func count(k int) (s int) {
	for i := range k {
		s += i
	}
	return s
}
fmt.Println(count(5))
var m int64 = 2
for j := range m {
	fmt.Printf("%T ", j)
}
fmt.Println()
// Output:
// 0 1 2 
// xx
// 10
// int64 int64 
