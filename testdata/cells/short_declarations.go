// Every form of := that Go accepts in a function body works at the top of a cell: comma-ok
// from a map, a channel and a type assertion, an index of a package's variable, a generic
// call; and `x := …` again with another type.
import (
	"fmt"
	"os"
)
m := map[string]int{"a": 1}
_, ok := m["a"]
fmt.Println(ok)
// ---
ch := make(chan int, 1)
ch <- 7
v, ok := <-ch
fmt.Println(v, ok)
close(ch)
j, more := <-ch
fmt.Println(j, more)
// ---
var x any = 3
_, isInt := x.(int)
s, isString := x.(string)
fmt.Printf("%v %q %v\n", isInt, s, isString)
// ---
arg := os.Args[0]
len(arg) > 0
// ---
n := 1
func getN() int { return n }
n := 2
getN()
// ---
n := "now a string"
n
// Output:
// true
// 7 true
// 0 false
// true "" false
// Out: true
// Out: 2
// stderr: note: func getN no longer compiles with this cell's declarations (cannot use n (variable of type string) as int value in return statement), and is gone; fix it and run its cell again
// Out: now a string
