//go:build !amd64

package fast

func roundBF16AVX2(x []float32) { panic("gpt/internal/fast: no AVX2 off amd64") }

func toBF16sAVX512BF16(dst *uint16, src *float32, n int) {
	panic("gpt/internal/fast: no AVX-512 off amd64")
}
