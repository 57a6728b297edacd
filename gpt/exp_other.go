//go:build !amd64

package gpt

// expSum replaces each x[i] by exp32(x[i]-shift), clamped to e^-87.34 … e^88.38, and
// returns their sum.
func expSum(x []float32, shift float32) float32 { return expSumGo(x, shift) }

// hasAVX2 is false off amd64: expSum is always the scalar loop.
const hasAVX2 = false

// useFastSgemm: the AVX2 Sgemm exists on amd64 only; gonum's stays.
func useFastSgemm() {}

// geluRange is geluForward on one range.
func geluRange(out, inp []float32) { geluGo(out, inp) }

// sgemmBias is never called off amd64: hasAVX2 is false, and the products go to blas32.
func sgemmBias(tB bool, m, n, k int, a []float32, lda int, b []float32, ldb int,
	bias, c []float32, ldc int) {
	panic("gpt: sgemmBias without AVX2")
}

// fastSgemm is never called off amd64: hasAVX2 is false, and the products go to blas32.
func fastSgemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int) {
	panic("gpt: fastSgemm without AVX2")
}
