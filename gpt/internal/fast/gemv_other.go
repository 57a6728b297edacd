//go:build !amd64 && !arm64

package fast

// gemvRows4x8 is never called off amd64 and arm64 (hasKernels is false).
func gemvRows4x8(y, x, w *float32, rows, cols, ldw int) {
	panic("gpt/internal/fast: gemv kernel off amd64 and arm64")
}

// gemvDot4x8 is never called off amd64 and arm64, like gemvRows4x8.
func gemvDot4x8(y, x, w *float32, rows, cols, ldw int) {
	panic("gpt/internal/fast: gemv kernel off amd64 and arm64")
}
