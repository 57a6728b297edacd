// A method expression T.M becomes a function literal calling the method.
import "fmt"

type celsius float64

func (c celsius) fahrenheit() float64 { return float64(c)*9/5 + 32 }
func (c *celsius) warm(by float64)    { *c += celsius(by) }

f := celsius.fahrenheit
fmt.Println(f(100))
c := celsius(10)
(*celsius).warm(&c, 5)
fmt.Println(c)
// Output:
// 212
// 15
