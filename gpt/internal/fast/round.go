package fast

// RoundBF16 rounds every element of x to the nearest bfloat16 (ties to even, a NaN stays a
// NaN), in place: what a BF16 model does to each op's output. Eight at a time with AVX2
// (round_amd64.s), and one at a time by roundBF16One, gpt's float32ToBF16, for the rest.
func RoundBF16(x []float32) {
	n := 0
	if HasAVX2 {
		n = len(x) &^ 7
		if n > 0 {
			roundBF16AVX2(x[:n])
		}
	}
	for i, f := range x[n:] {
		x[n+i] = roundBF16One(f)
	}
}
