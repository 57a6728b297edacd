// A deferred call's arguments are evaluated at the defer statement, in a function, in a loop
// and at the top of a cell; `_, ok := <-ch` at the top of a cell works like any comma-ok.
import "fmt"
func f() {
	x := 1
	defer fmt.Println("plain", x)
	defer func(v int) { fmt.Println("literal", v) }(x)
	x = 2
	for i := 0; i < 2; i++ {
		defer fmt.Println("loop", i)
	}
}
f()
// ---
ch := make(chan int, 1)
ch <- 3
_, ok := <-ch
fmt.Println(ok)
close(ch)
_, ok = <-ch
fmt.Println(ok)
// Output:
// loop 1
// loop 0
// literal 1
// plain 1
// true
// false
