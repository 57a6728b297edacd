// A panic in a goroutine the cell started fails that cell; the kernel and its variables live on.
import "time"
import "fmt"
kept := "still here"
// ---
go func() {
	panic("boom")
}()
time.Sleep(2 * time.Second)
fmt.Println("not reached")
// ---
fmt.Println(kept)
// Output:
// Error: GoroutinePanic: panic in a goroutine started by this cell: boom
// still here
