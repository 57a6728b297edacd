// main's body pasted as a cell runs as it would in main: return ends the cell (also from inside
// an if or a loop), goto finds its label, break and continue stay in their loop. The cell's
// variables are the session's all the same.
import "fmt"
fmt.Println("a")
if true {
	fmt.Println("early")
	return
}
fmt.Println("not reached")
// ---
for i := 0; i < 5; i++ {
	if i == 2 {
		return
	}
	fmt.Println("i", i)
}
fmt.Println("after loop")
// ---
tries := 0
retry:
tries++
if tries < 3 {
	goto retry
}
fmt.Println("tries", tries)
// ---
tries
// Output:
// a
// early
// i 0
// i 1
// tries 3
// Out: 3
