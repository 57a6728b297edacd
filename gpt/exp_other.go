//go:build !amd64

package gpt

import "gonum.org/v1/gonum/blas"

// expSum replaces each x[i] by exp32(x[i]-shift), clamped to e^-87.34 … e^88.38, and
// returns their sum.
func expSum(x []float32, shift float32) float32 { return expSumGo(x, shift) }

// hasAVX2 is false off amd64: expSum is always the scalar loop.
const hasAVX2 = false

// withFastSgemm is never called off amd64 (hasAVX2 is false): base's Sgemm stays.
func withFastSgemm(base blas.Float32) blas.Float32 { return base }

// geluRange is geluForward on one range.
func geluRange(out, inp []float32) { geluGo(out, inp) }

// sgemmBias is never called off amd64: hasAVX2 is false, and the products go to blas32.
func sgemmBias(tB bool, m, n, k int, a []float32, lda int, b []float32, ldb int,
	bias, c []float32, ldc int) {
	panic("gpt: sgemmBias without AVX2")
}
