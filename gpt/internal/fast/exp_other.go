//go:build !amd64

package fast

// HasAVX2 is false off amd64: every kernel takes its portable Go path. (A variable, like
// amd64's, so that the tests that switch the fast paths off read the same everywhere.)
var HasAVX2 = false

// expSum replaces each x[i] by exp32(x[i]-shift), clamped to e^-87.34 … e^88.38, and
// returns their sum.
func expSum(x []float32, shift float32) float32 { return expSumGo(x, shift) }

// sumExp is expSum's sum, leaving x as it is.
func sumExp(x []float32, shift float32) float32 { return sumExpGo(x, shift) }

// geluRange is Gelu on one range.
func geluRange(out, inp []float32) { geluGo(out, inp) }

// HasAVX512BF16 is false off amd64.
var HasAVX512BF16 = false
