package fast

import "sync"

// One-row products. A cached decode step pushes one position through the model, so each of
// its matrix products multiplies a single row by a weight matrix: there are only 2 flops per
// weight read, and the step's speed is how fast the cores stream the weights from memory
// (GPT-2 Small reads all 498 MB of them for every token). The kernels below read every
// weight exactly once, in the order it lies in memory, with AVX2 and FMA (gemv_amd64.s) or
// NEON (gemv_arm64.s) where the CPU has them and plain loops otherwise, and the cores share the work.

// GemvMaxRows is the most rows a product runs on the one-row kernels, one row after
// another: a prompt of a few tokens. Each block of weights is read from memory once and
// from the cache for the other rows, where the sgemm would first pack all of the weights
// into panels, a pass over them of its own (a 2-token prompt's forward of Small cost three
// decode steps that way).
const GemvMaxRows = 4

// gemvBlockBytes is how many bytes of weights the one-row kernels take at a time for
// several rows: a block that stays in the core's cache while each row reads it.
const gemvBlockBytes = 256 << 10

// gemvConv1D adds x·w to y, the Conv1D of N ≤ GemvMaxRows rows: x (N, C), w (C, OC) in the
// checkpoint's [in, out] layout, y (N, OC). Each core takes a range of rows of w — one
// contiguous stretch of memory — and adds x[n][i]·w[i] for its rows into a y of its own,
// which stays in cache; the partial ys are summed at the end.
func gemvConv1D(y, x, w []float32, N, C, OC int) {
	splitConv1D(conv1DArgs{y: y, x: x, w: w, N: N, C: C, OC: OC})
}

// conv1DArgs are the operands of a Conv1D on the one-row kernels, y (N, OC) += x (N, C)·w
// (C, OC), with w in fp32 or, when w16 is set, bfloat16; nw workers, and part the partial
// ys of workers 1…nw-1.
type conv1DArgs struct {
	y, x, w  []float32
	w16      []uint16
	N, C, OC int
	nw       int
	part     []float32 // (nw-1, N, OC)
}

// splitConv1D runs the product over the cores, each core's rows into a y of its own, and
// sums the ys into y.
func splitConv1D(a conv1DArgs) {
	a.nw = min(Workers(), a.C/64)
	NO := a.N * a.OC
	if a.nw <= 1 {
		conv1DRows(a.y[:NO], &a, 0, a.C)
		return
	}
	buf := getFloats(&gemvParts, (a.nw-1)*NO) // the other workers' partial ys
	defer gemvParts.Put(buf)
	a.part = *buf
	clear(a.part) // the rows add into it
	conv1DRegion.Parts(a.nw, a)
	for k := 1; k < a.nw; k++ {
		for j, v := range a.part[(k-1)*NO : k*NO] {
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
	NO := a.N * a.OC
	dst := a.y[:NO]
	if k > 0 {
		dst = a.part[(k-1)*NO : k*NO]
	}
	conv1DRows(dst, a, lo, hi)
}}

// conv1DRows adds the terms of rows lo…hi-1 of w to each of the N rows of dst (N, OC):
// for several rows, a block of w at a time, which the other rows read from the cache.
func conv1DRows(dst []float32, a *conv1DArgs, lo, hi int) {
	C, OC, step := a.C, a.OC, hi-lo
	if a.N > 1 {
		size := 4
		if a.w16 != nil {
			size = 2
		}
		step = max(8, gemvBlockBytes/(OC*size)&^7)
	}
	for i0 := lo; i0 < hi; i0 += step {
		i1 := min(hi, i0+step)
		for n := range a.N {
			y, x := dst[n*OC:(n+1)*OC], a.x[n*C+i0:n*C+i1]
			if a.w16 != nil {
				gemvRows16(y, x, a.w16[i0*OC:], OC)
			} else {
				gemvRows(y, x, a.w[i0*OC:], OC)
			}
		}
	}
}

// gemvParts holds gemvConv1D's partial ys from call to call (48 calls a token for Small).
var gemvParts sync.Pool

// gemvLogits sets y = x·wteᵀ, the output layer of N ≤ GemvMaxRows rows: x (N, C), wte
// (V, C), y (N, V) with row n at y[n·ldy:]. Each core takes a range of token rows; every
// logit is one dot product with a row of x, which stays in cache.
func gemvLogits(y []float32, ldy int, x, wte []float32, N, C, V int) {
	logitsRegion.Chunks(V, 1024, logitsArgs{y: y, ldy: ldy, x: x, wte: wte, N: N, C: C})
}

// logitsArgs are the operands of the output layer on the one-row kernels, y (N, V) =
// x (N, C)·wteᵀ, with wte (V, C) in fp32 or, when wte16 is set, bfloat16.
type logitsArgs struct {
	y      []float32
	ldy    int
	x, wte []float32
	wte16  []uint16
	N, C   int
}

// logitsRegion computes the logits of tokens lo…hi-1 for every row: for several rows, a
// block of tokens at a time, which the other rows read from the cache.
var logitsRegion = Region[logitsArgs]{Body: func(a *logitsArgs, lo, hi int) {
	C, step := a.C, hi-lo
	if a.N > 1 {
		step = max(4, gemvBlockBytes/(C*4)&^3)
	}
	for v0 := lo; v0 < hi; v0 += step {
		v1 := min(hi, v0+step)
		for n := range a.N {
			y, x := a.y[n*a.ldy+v0:n*a.ldy+v1], a.x[n*C:(n+1)*C]
			if a.wte16 != nil {
				gemvDot16(y, x, a.wte16[v0*C:], C)
			} else {
				gemvDot(y, x, a.wte[v0*C:], C)
			}
		}
	}
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
