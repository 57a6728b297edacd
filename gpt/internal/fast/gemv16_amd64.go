package fast

// The assembly behind gemv16.go's one-row products (gemv16_amd64.s).

func gemvRows16AVX2(y, x *float32, w *uint16, rows, cols, ldw int)
func gemvRows16AVX512(y, x *float32, w *uint16, rows, cols, ldw int)
func gemvDot16AVX2(y, x *float32, w *uint16, rows, cols, ldw int)
func gemvDot16AVX512(y, x *float32, w *uint16, rows, cols, ldw int)
