package fast

// The assembly behind gemv16.go's one-row products: widening on AVX2 (gemv16_amd64.s),
// pairs on VDPBF16PS (gemv16dp_amd64.s).

func gemvRows16AVX2(y, x *float32, w *uint16, rows, cols, ldw int)
func gemvDot16AVX2(y, x *float32, w *uint16, rows, cols, ldw int)
func gemvRows16AVX512BF16(y *float32, xb, w *uint16, rows, cols, ldw int)
func gemvDot16AVX512BF16(y *float32, xb, w *uint16, rows, cols, ldw int)
