//go:build !amd64

package fast

func roundBF16AVX2(x []float32) { panic("gpt/internal/fast: no AVX2 off amd64") }
