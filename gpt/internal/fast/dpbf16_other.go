//go:build !amd64

package fast

// dpGemmBias16 is never called off amd64: HasAVX512BF16 is false.
func dpGemmBias16(tB bool, m, n, k int, a []float32, lda int, b []uint16, ldb int,
	bias, c []float32, ldc int) {
	panic("gpt/internal/fast: dpGemmBias16 without AVX-512 BF16")
}
