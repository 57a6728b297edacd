package gpt

import "fmt"

// FirstRepeat finds where a generated sequence starts repeating itself: the first position
// at whose n tokens the same n tokens already occurred, and how far back they occurred (at is
// -1 when no span of n tokens repeats). Greedy decoding falls into such loops:
//
//	FirstRepeat([]int{7, 1, 2, 3, 9, 1, 2, 3}, 3) → 5, 4 (1 2 3 at 5 was at 1)
func FirstRepeat(ids []int, n int) (at, back int) {
	if n < 1 {
		return -1, 0
	}
	seen := map[string]int{}
	for i := 0; i+n <= len(ids); i++ {
		key := fmt.Sprint(ids[i : i+n])
		if j, ok := seen[key]; ok {
			return i, i - j
		}
		seen[key] = i
	}
	return -1, 0
}
