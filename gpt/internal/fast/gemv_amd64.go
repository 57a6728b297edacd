package fast

// The assembly behind gemv.go's one-row products (gemv_amd64.s).

func gemvRowsAVX2(y, x, w *float32, rows, cols, ldw int)
func gemvDotAVX2(y, x, w *float32, rows, cols, ldw int)
