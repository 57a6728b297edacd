// Declarations and statements mixed in one cell; a trailing expression becomes Out[n].
import "fmt"

type point struct{ X, Y int }

func (p point) norm1() int { return abs(p.X) + abs(p.Y) }

p := point{3, -4}
fmt.Println("norm", p.norm1())

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

p
// Output:
// norm 7
// Out: {3 -4}
