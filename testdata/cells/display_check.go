// display.Check, the notebooks' one-line error check: nothing when err is nil; the cell stops
// with the error when it is not, and what the cell defined before stays. An Output prints its
// shape and loss, and says when there is no loss.
import (
	"fmt"
	"strconv"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/kernel/display"
)

display.Check(nil)
before := 7
fmt.Println("nil: nothing happens")
// ---
_, err := strconv.Atoi("seven")
display.Check(err)
fmt.Println("not reached")
// ---
fmt.Println("still defined:", before)
// ---
m, err := gpt.New(gpt.Tiny)
display.Check(err)
m.Init(1, true)
out, err := m.Forward([][]int{{1, 2, 3}}, nil)
display.Check(err)
out
// Output:
// nil: nothing happens
// Error: Panic: strconv.Atoi: parsing "seven": invalid syntax
// still defined: 7
// Out: logits (1, 1, 512), no loss (no targets)
