//go:build !amd64 && !arm64

package fast

import "gonum.org/v1/gonum/blas"

// withFastSgemm is never called off amd64 and arm64 (hasKernels is false): base's Sgemm stays.
func withFastSgemm(base blas.Float32) blas.Float32 { return base }

// sgemmBias is never called off amd64 and arm64: hasKernels is false, and the products go to impl.
func sgemmBias(tB bool, m, n, k int, a []float32, lda int, b []float32, ldb int,
	bias, c []float32, ldc int) {
	panic("gpt/internal/fast: sgemmBias without our kernels")
}

// sgemmBias16 is never called off amd64 and arm64, like sgemmBias.
func sgemmBias16(tB bool, m, n, k int, a []float32, lda int, b []uint16, ldb int,
	bias, c []float32, ldc int) {
	panic("gpt/internal/fast: sgemmBias16 without our kernels")
}
