package fast

import (
	"math"
	"math/bits"
	"sync"
)

// One-row products with bfloat16 weights: the decode step of a BF16 model. The weights
// stream from memory at 2 bytes each — half of gemv.go's traffic, so up to twice its speed —
// and are accumulated in float32. With AVX-512 BF16, VDPBF16PS multiplies them in pairs by
// the activations rounded to bfloat16 (gemv16dp_amd64.s; a BF16 model's activations are
// bfloat16 values already, and its many-row products round them the same way); with AVX2
// they are widened to float32 in registers, a bfloat16 being the top half of a float32
// (gemv16_amd64.s); elsewhere the plain loops below run, which are also what the tests
// compare the others with.

// widen is a bfloat16 as the float32 it is exactly.
func widen(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// gemvConv1D16 is gemvConv1D with w (C, OC) in bfloat16.
func gemvConv1D16(y, x []float32, w []uint16, N, C, OC int) {
	splitConv1D(conv1DArgs{y: y, x: x, w16: w, N: N, C: C, OC: OC})
}

// gemvLogits16 is gemvLogits with wte (V, C) in bfloat16.
func gemvLogits16(y []float32, ldy int, x []float32, wte []uint16, N, C, V int) {
	logitsRegion.Chunks(V, 1024, logitsArgs{y: y, ldy: ldy, x: x, wte16: wte, N: N, C: C})
}

// gemv16Rows says whether a bf16 product of N rows runs on the one-row kernels: one row, or
// up to GemvMaxRows where they have vector kernels (gemv16_amd64.s).
func gemv16Rows(N int) bool { return N == 1 || N <= GemvMaxRows && HasAVX2 }

// gemvRows16 adds Σ_i x[i]·widen(w[i·ldw : i·ldw+len(y)]) to y (x rounded to bfloat16
// first where it runs on VDPBF16PS).
func gemvRows16(y, x []float32, w []uint16, ldw int) {
	rows, cols := len(x), len(y)
	if rows == 0 || cols == 0 {
		return
	}
	if len(w) < (rows-1)*ldw+cols {
		panic("gpt/internal/fast: gemv16: weight slice too short")
	}
	if HasAVX512BF16 && rows >= 8 && cols >= 32 {
		gemvRows16DP(y, x, w, ldw)
		return
	}
	r8, cv := rows&^7, 0 // the assembly's part: rows by eight, columns by 8
	switch {
	case r8 == 0:
	case HasAVX2 && cols >= 8:
		cv = cols &^ 7
		gemvRows16AVX2(&y[0], &x[0], &w[0], r8, cv, ldw)
	default:
		r8 = 0
	}
	gemvRows16Go(y[cv:], x[:r8], w[cv:], ldw) // the last few columns of the kernel's rows
	if r8 < rows {
		gemvRows16Go(y, x[r8:], w[r8*ldw:], ldw) // the remaining rows, whole
	}
}

// gemvRows16Go is gemvRows16 in plain Go.
func gemvRows16Go(y, x []float32, w []uint16, ldw int) {
	for i, xi := range x {
		row := w[i*ldw : i*ldw+len(y)]
		for j, h := range row {
			y[j] += xi * widen(h)
		}
	}
}

// gemvDot16 sets y[i] = widen(w[i·ldw : i·ldw+len(x)])·x for every i (x rounded to
// bfloat16 first where it runs on VDPBF16PS).
func gemvDot16(y, x []float32, w []uint16, ldw int) {
	rows, cols := len(y), len(x)
	if rows == 0 {
		return
	}
	if len(w) < (rows-1)*ldw+cols {
		panic("gpt/internal/fast: gemv16: weight slice too short")
	}
	if HasAVX512BF16 && rows >= 4 && cols >= 32 {
		gemvDot16DP(y, x, w, ldw)
		return
	}
	r4, cv := rows&^3, 0
	switch {
	case r4 == 0:
	case HasAVX2 && cols >= 8:
		cv = cols &^ 7
		gemvDot16AVX2(&y[0], &x[0], &w[0], r4, cv, ldw)
	default:
		r4 = 0
	}
	for i := 0; i < r4; i++ { // the last few columns of the kernel's rows
		row := w[i*ldw : i*ldw+cols]
		for j := cv; j < cols; j++ {
			y[i] += widen(row[j]) * x[j]
		}
	}
	for i := r4; i < rows; i++ {
		var s float32
		for j, h := range w[i*ldw : i*ldw+cols] {
			s += widen(h) * x[j]
		}
		y[i] = s
	}
}

// gemvRows16DP is gemvRows16 on VDPBF16PS, with x rounded to bfloat16: the kernel takes
// eight rows and 32 columns at a time, the loop below what is left of both.
func gemvRows16DP(y, x []float32, w []uint16, ldw int) {
	rows, cols := len(x), len(y)
	xb := bfloat16s(x)
	defer halves.Put(xb)
	r8, c32 := rows&^7, cols&^31
	gemvRows16AVX512BF16(&y[0], &(*xb)[0], &w[0], r8, c32, ldw)
	for i, h := range *xb {
		lo := c32 // the kernel's rows lack their last columns; the others, all of them
		if i >= r8 {
			lo = 0
		}
		xi := widen(h)
		for j, wij := range w[i*ldw+lo : i*ldw+cols] {
			y[lo+j] += xi * widen(wij)
		}
	}
}

// gemvDot16DP is gemvDot16 on VDPBF16PS, with x rounded to bfloat16: the kernel takes four
// rows and 32 columns at a time, the loop below what is left of both.
func gemvDot16DP(y, x []float32, w []uint16, ldw int) {
	rows, cols := len(y), len(x)
	xb := bfloat16s(x)
	defer halves.Put(xb)
	r4, c32 := rows&^3, cols&^31
	gemvDot16AVX512BF16(&y[0], &(*xb)[0], &w[0], r4, c32, ldw)
	for i := range rows {
		lo := c32
		if i >= r4 {
			lo, y[i] = 0, 0
		}
		for j, h := range (*xb)[lo:] {
			y[i] += widen(w[i*ldw+lo+j]) * widen(h)
		}
	}
}

// bfloat16s is x rounded to bfloat16, in a buffer from halves.
func bfloat16s(x []float32) *[]uint16 { return bfloat16sPadded(x, len(x)) }

// bfloat16sPadded is x rounded to bfloat16 and then zeros up to n values, in a buffer
// from halves: sixteen at a time on VCVTNEPS2BF16 where the CPU has AVX-512 BF16 (a
// decode step of Small rounds some 64,000 activations for its products).
func bfloat16sPadded(x []float32, n int) *[]uint16 {
	p, ok := halves.Get().(*[]uint16)
	if !ok || cap(*p) < n {
		s := make([]uint16, n, 1<<bits.Len(uint(n))) // as getFloats
		p = &s
	}
	*p = (*p)[:n]
	done := 0
	if HasAVX512BF16 { // every caller feeds VDPBF16PS: the instruction is there
		done = len(x) &^ 15
		if done > 0 {
			toBF16sAVX512BF16(&(*p)[0], &x[0], done)
		}
	}
	for i, v := range x[done:] {
		(*p)[done+i] = uint16(toBF16(v))
	}
	clear((*p)[len(x):])
	return p
}

// halves holds the rounded activations of the VDPBF16PS kernels from call to call.
var halves sync.Pool
