//go:build !amd64

package fast

func gemvRows16AVX2(y, x *float32, w *uint16, rows, cols, ldw int) {
	panic("gpt/internal/fast: no AVX2 off amd64")
}
func gemvRows16AVX512BF16(y *float32, xb, w *uint16, rows, cols, ldw int) {
	panic("gpt/internal/fast: no AVX-512 off amd64")
}
func gemvDot16AVX2(y, x *float32, w *uint16, rows, cols, ldw int) {
	panic("gpt/internal/fast: no AVX2 off amd64")
}
func gemvDot16AVX512BF16(y *float32, xb, w *uint16, rows, cols, ldw int) {
	panic("gpt/internal/fast: no AVX-512 off amd64")
}
