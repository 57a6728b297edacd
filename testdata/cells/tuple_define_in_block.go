// A variable defined from a multi-value expression inside a top-level loop, if or block is
// found (yaegi v0.16.1 alone says "undefined: t"), and break and continue keep their loop.
import (
	"fmt"
	"strconv"
)

func divmod(a, b int) (int, int) { return a / b, a % b }

total := 0
for _, s := range []string{"1", "x", "3", "stop", "5"} {
	if s == "stop" {
		break
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		continue
	}
	total += n
}
fmt.Println("total", total)
ages := map[string]int{"gopher": 13}
if age, ok := ages["gopher"]; ok {
	fmt.Println("age", age)
}
{
	var q, r = divmod(7, 2)
	fmt.Println(q, r)
}
// Output:
// total 4
// age 13
// 3 1
