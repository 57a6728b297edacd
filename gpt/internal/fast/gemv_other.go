//go:build !amd64

package fast

func gemvRowsAVX2(y, x, w *float32, rows, cols, ldw int) {
	panic("gpt/internal/fast: no AVX2 off amd64")
}
func gemvDotAVX2(y, x, w *float32, rows, cols, ldw int) {
	panic("gpt/internal/fast: no AVX2 off amd64")
}
