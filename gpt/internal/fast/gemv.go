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
	splitConv1D(conv1DArgs{y: y, x: x, w: w, C: C, OC: OC})
}

// conv1DArgs are the operands of a one-row Conv1D, y (OC) += x (C)·w (C, OC), with w in
// fp32 or, when w16 is set, bfloat16; nw workers, and part the partial ys of workers 1…nw-1.
type conv1DArgs struct {
	y, x, w []float32
	w16     []uint16
	C, OC   int
	nw      int
	part    []float32 // (nw-1, OC)
}

// splitConv1D runs the product over the cores, each core's rows into a y of its own, and
// sums the ys into y.
func splitConv1D(a conv1DArgs) {
	a.nw = min(Workers(), a.C/64)
	if a.nw <= 1 {
		conv1DRows(a.y[:a.OC], &a, 0, a.C)
		return
	}
	buf := getFloats(&gemvParts, (a.nw-1)*a.OC) // the other workers' partial ys
	defer gemvParts.Put(buf)
	a.part = *buf
	clear(a.part) // the rows add into it
	conv1DRegion.Parts(a.nw, a)
	for k := 1; k < a.nw; k++ {
		for j, v := range a.part[(k-1)*a.OC : k*a.OC] {
			a.y[j] += v
		}
	}
}

// conv1DRegion is worker k's share of splitConv1D: its rows, in eights (the kernels'
// steps), into y (worker 0) or its partial y.
var conv1DRegion = Region[conv1DArgs]{Body: func(a *conv1DArgs, k, _ int) {
	lo, hi := (a.C*k/a.nw)&^7, (a.C*(k+1)/a.nw)&^7
	if k == a.nw-1 {
		hi = a.C
	}
	dst := a.y[:a.OC]
	if k > 0 {
		dst = a.part[(k-1)*a.OC : k*a.OC]
	}
	conv1DRows(dst, a, lo, hi)
}}

// conv1DRows adds rows lo…hi-1 of the product a into dst (OC).
func conv1DRows(dst []float32, a *conv1DArgs, lo, hi int) {
	if a.w16 != nil {
		gemvRows16(dst, a.x[lo:hi], a.w16[lo*a.OC:], a.OC)
		return
	}
	gemvRows(dst, a.x[lo:hi], a.w[lo*a.OC:], a.OC)
}

// gemvParts holds gemvConv1D's partial ys from call to call (48 calls a token for Small).
var gemvParts sync.Pool

// gemvLogits sets y = wte·x, the one-row output layer: x (C), wte (V, C), y (V). Each core
// takes a range of token rows; every logit is one dot product with x, which stays in cache.
func gemvLogits(y, x, wte []float32, C, V int) {
	logitsRegion.Chunks(V, 1024, logitsArgs{y: y, x: x, wte: wte, C: C})
}

// logitsArgs are the operands of a one-row output layer, y (V) = wte (V, C)·x (C), with wte
// in fp32 or, when wte16 is set, bfloat16.
type logitsArgs struct {
	y, x, wte []float32
	wte16     []uint16
	C         int
}

// logitsRegion computes the logits of tokens lo…hi-1.
var logitsRegion = Region[logitsArgs]{Body: func(a *logitsArgs, lo, hi int) {
	if a.wte16 != nil {
		gemvDot16(a.y[lo:hi], a.x[:a.C], a.wte16[lo*a.C:], a.C)
		return
	}
	gemvDot(a.y[lo:hi], a.x[:a.C], a.wte[lo*a.C:], a.C)
}}

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
