package fast

// The assembly behind gemv.go's one-row products on amd64, with AVX2 and FMA (gemv_amd64.s).

// gemvRows4x8 adds Σ_i x[i]·w[i·ldw+j] to y[j] for i < rows (a multiple of 4) and j < cols
// (a multiple of 8).
//
//go:noescape
func gemvRows4x8(y, x, w *float32, rows, cols, ldw int)

// gemvDot4x8 sets y[i] = Σ_j w[i·ldw+j]·x[j] for i < rows (a multiple of 4) and j < cols
// (a multiple of 8).
//
//go:noescape
func gemvDot4x8(y, x, w *float32, rows, cols, ldw int)
