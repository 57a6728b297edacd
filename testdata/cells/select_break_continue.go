// break in a case of a select ends the select, and continue starts the loop's next iteration,
// as in Go (yaegi alone ended the loop for both, with no error).
import "fmt"
func drain() int {
	data := make(chan int, 3)
	data <- 1
	data <- 2
	data <- 3
	n := 0
	for n < 10 {
		n++
		select {
		case <-data:
			continue
		default:
		}
		break
	}
	return n
}
func skipZero() []int {
	ch := make(chan int, 3)
	ch <- 0
	ch <- 1
	ch <- 2
	var got []int
	for i := 0; i < 3; i++ {
		select {
		case v := <-ch:
			if v == 0 {
				break
			}
			got = append(got, v)
		}
	}
	return got
}
fmt.Println(drain(), skipZero())
// ---
ch := make(chan int, 2)
ch <- 5
ch <- 6
seen := 0
outer:
for i := 0; i < 4; i++ {
	select {
	case v := <-ch:
		seen += v
		continue outer
	default:
		break outer
	}
}
seen
// Output:
// 4 [1 2]
// Out: 11
