package fast

// The exponentials of softmax and GELU run eight at a time with AVX2 and FMA when the CPU
// has them (exp_amd64.s); expSumGo is the same computation one element at a time.

func expSumAVX2(x []float32, shift float32) float32
func sumExpAVX2(x []float32, shift float32) float32
func geluAVX2(out, inp []float32, k, c float32)

// expSum replaces each x[i] by exp32(x[i]-shift), clamped to e^-87.34 … e^88.38, and
// returns their sum.
func expSum(x []float32, shift float32) float32 {
	if !HasAVX2 {
		return expSumGo(x, shift)
	}
	n := len(x) &^ 7
	s := expSumAVX2(x[:n], shift)
	return s + expSumGo(x[n:], shift)
}

// geluRange is Gelu on one range, in one AVX2 pass where the CPU has it.
func geluRange(out, inp []float32) {
	n := 0
	if HasAVX2 {
		n = len(inp) &^ 7
		geluAVX2(out[:n], inp[:n], -2*geluScale, 0.044715)
	}
	geluGo(out[n:], inp[n:])
}

// sumExp is expSum's sum, leaving x as it is.
func sumExp(x []float32, shift float32) float32 {
	if !HasAVX2 {
		return sumExpGo(x, shift)
	}
	n := len(x) &^ 7
	s := sumExpAVX2(x[:n], shift)
	return s + sumExpGo(x[n:], shift)
}
