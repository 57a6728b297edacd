package gpt

import "testing"

func TestFirstRepeat(t *testing.T) {
	for _, c := range []struct {
		ids      []int
		n        int
		at, back int
	}{
		{[]int{1, 2, 3, 4, 5}, 2, -1, 0},
		{[]int{9, 1, 2, 3, 1, 2, 3, 7}, 3, 4, 3},
		{[]int{5, 5, 5, 5}, 2, 1, 1},
		{[]int{1, 2}, 3, -1, 0},
		{[]int{1, 1}, 0, -1, 0},
	} {
		if at, back := FirstRepeat(c.ids, c.n); at != c.at || back != c.back {
			t.Errorf("FirstRepeat(%v, %d) = %d, %d; want %d, %d", c.ids, c.n, at, back, c.at, c.back)
		}
	}
}
