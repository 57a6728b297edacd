package fast

import "sync"

// One-row products. A cached decode step pushes one position through the model, so each of
// its matrix products multiplies a single row by a weight matrix: there are only 2 flops per
// weight read, and the step's speed is how fast the cores stream the weights from memory
// (GPT-2 Small reads all 498 MB of them for every token). The kernels below read every
// weight exactly once, in the order it lies in memory, with AVX2 and FMA (gemv_amd64.s) or
// NEON (gemv_arm64.s) where the CPU has them and plain loops otherwise, and the cores share the work.

// gemvConv1D adds x·w to y, the one-row Conv1D: x (C), w (C, OC) in the checkpoint's
// [in, out] layout, y (OC). Each core takes a range of rows of w — one contiguous stretch of
// memory — and adds x[i]·w[i] for its rows into a y of its own, which stays in cache; the
// partial ys are summed at the end.
func gemvConv1D(y, x, w []float32, C, OC int) {
	splitConv1D(y, C, OC, func(dst []float32, lo, hi int) { gemvRows(dst, x[lo:hi], w[lo*OC:], OC) })
}

// splitConv1D runs rows(dst, lo, hi) — add rows lo…hi-1 of a (C, OC) product into dst
// (OC) — over the cores, each core's rows into a y of its own, and sums the ys into y.
func splitConv1D(y []float32, C, OC int, rows func(dst []float32, lo, hi int)) {
	nw := min(Workers(), C/64)
	if nw <= 1 {
		rows(y[:OC], 0, C)
		return
	}
	span := func(k int) (lo, hi int) { // worker k's rows, in eights (the kernels' steps)
		lo, hi = (C*k/nw)&^7, (C*(k+1)/nw)&^7
		if k == nw-1 {
			hi = C
		}
		return lo, hi
	}
	buf := getFloats(&gemvParts, (nw-1)*OC) // the other workers' partial ys
	defer gemvParts.Put(buf)
	part := *buf
	clear(part) // rows adds into it
	runWorkers(nw, func(k int) {
		lo, hi := span(k)
		dst := y[:OC]
		if k > 0 {
			dst = part[(k-1)*OC : k*OC]
		}
		rows(dst, lo, hi)
	})
	for k := 1; k < nw; k++ {
		for j, v := range part[(k-1)*OC : k*OC] {
			y[j] += v
		}
	}
}

// gemvParts holds gemvConv1D's partial ys from call to call (48 calls a token for Small).
var gemvParts sync.Pool

// gemvLogits sets y = wte·x, the one-row output layer: x (C), wte (V, C), y (V). Each core
// takes a range of token rows; every logit is one dot product with x, which stays in cache.
func gemvLogits(y, x, wte []float32, C, V int) {
	Chunks(V, 1024, func(lo, hi int) {
		gemvDot(y[lo:hi], x[:C], wte[lo*C:], C)
	})
}

// gemvRows adds Σ_i x[i]·w[i·ldw : i·ldw+len(y)] to y.
func gemvRows(y, x, w []float32, ldw int) {
	rows, cols := len(x), len(y)
	if rows == 0 || cols == 0 {
		return
	}
	if len(w) < (rows-1)*ldw+cols {
		panic("gpt/internal/fast: gemv: weight slice too short")
	}
	r4, c8 := rows&^3, cols&^7 // the assembly's part: rows by four, columns by eight
	if !hasKernels() || r4 == 0 || c8 == 0 {
		r4, c8 = 0, 0
	} else {
		gemvRows4x8(&y[0], &x[0], &w[0], r4, c8, ldw)
	}
	for i := 0; i < r4; i++ { // the last few columns of the kernel's rows
		xi, row := x[i], w[i*ldw:i*ldw+cols]
		for j := c8; j < cols; j++ {
			y[j] += xi * row[j]
		}
	}
	for i := r4; i < rows; i++ { // the remaining rows, whole
		xi, row := x[i], w[i*ldw:i*ldw+cols]
		for j, v := range row {
			y[j] += xi * v
		}
	}
}

// gemvDot sets y[i] = w[i·ldw : i·ldw+len(x)]·x for every i.
func gemvDot(y, x, w []float32, ldw int) {
	rows, cols := len(y), len(x)
	if rows == 0 {
		return
	}
	if len(w) < (rows-1)*ldw+cols {
		panic("gpt/internal/fast: gemv: weight slice too short")
	}
	r4, c8 := rows&^3, cols&^7
	if !hasKernels() || r4 == 0 || c8 == 0 {
		r4, c8 = 0, 0
	} else {
		gemvDot4x8(&y[0], &x[0], &w[0], r4, c8, ldw)
	}
	for i := 0; i < r4; i++ {
		row := w[i*ldw : i*ldw+cols]
		for j := c8; j < cols; j++ {
			y[i] += row[j] * x[j]
		}
	}
	for i := r4; i < rows; i++ {
		var s float32
		for j, v := range w[i*ldw : i*ldw+cols] {
			s += v * x[j]
		}
		y[i] = s
	}
}
