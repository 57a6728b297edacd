package fast

// The exponentials of softmax and GELU run eight at a time with AVX2 and FMA when the CPU
// has them (exp_amd64.s); expSumGo is the same computation one element at a time.

func expSumAVX2(x []float32, shift float32) float32
func geluAVX2(out, inp []float32, k, c float32)
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax uint32)

// HasAVX2 reports AVX2 and FMA, and that the OS saves the YMM registers. Tests set it
// false to run the portable paths.
var HasAVX2 = func() bool {
	max, _, _, _ := cpuid(0, 0)
	if max < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	fma, osxsave := ecx1&(1<<12) != 0, ecx1&(1<<27) != 0
	if !fma || !osxsave || xgetbv()&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}()

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
