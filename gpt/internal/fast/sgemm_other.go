//go:build !amd64

package fast

import "gonum.org/v1/gonum/blas"

// withFastSgemm is never called off amd64 (HasAVX2 is false): base's Sgemm stays.
func withFastSgemm(base blas.Float32) blas.Float32 { return base }

// sgemmBias is never called off amd64: HasAVX2 is false, and the products go to impl.
func sgemmBias(tB bool, m, n, k int, a []float32, lda int, b []float32, ldb int,
	bias, c []float32, ldc int) {
	panic("gpt/internal/fast: sgemmBias without AVX2")
}

// sgemmBias16 is never called off amd64, like sgemmBias.
func sgemmBias16(tB bool, m, n, k int, a []float32, lda int, b []uint16, ldb int,
	bias, c []float32, ldc int) {
	panic("gpt/internal/fast: sgemmBias16 without AVX2")
}

// dpGemmBias16 is never called off amd64: HasAVX512BF16 is false.
func dpGemmBias16(tB bool, m, n, k int, a []float32, lda int, b []uint16, ldb int,
	bias, c []float32, ldc int) {
	panic("gpt/internal/fast: dpGemmBias16 without AVX-512 BF16")
}
