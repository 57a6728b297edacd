// A cell's func main runs once, when its cell runs (a program pasted into a cell works), and
// not again after later cells.
import "fmt"
func main() {
	fmt.Println("main ran")
}
// ---
func other() {}
x := 1
x
// ---
main()
// Output:
// main ran
// Out: 1
// main ran
