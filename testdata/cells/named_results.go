// Named results start at their zero value on every call, also when the function is called
// again from the same place in a loop (yaegi v0.16.1 alone carries them over: 1 2 3).
import "fmt"

type point struct{ x, y int }

func count(n int) (total int, p point) {
	total += n
	p.x += n
	return
}

for i := 0; i < 3; i++ {
	t, p := count(1)
	fmt.Print(t, p.x, " ")
}
sum := func(xs []int) (s int) {
	for _, x := range xs {
		s += x
	}
	return s
}
for i := 0; i < 2; i++ {
	fmt.Print(sum([]int{1, 2}), " ")
}
fmt.Println()
// Output:
// 1 1 1 1 1 1 3 3 
