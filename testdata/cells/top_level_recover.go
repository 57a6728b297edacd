// A deferred recover at the top of a cell sees the cell's panic, as it would in main.
import "fmt"
defer func() {
	if r := recover(); r != nil {
		fmt.Println("recovered:", r)
	}
}()
total := 40
panic("a problem")
// ---
total + 2
// ---
defer fmt.Println("deferred runs last")
fmt.Println("body")
// Output:
// recovered: a problem
// Out: 42
// body
// deferred runs last
