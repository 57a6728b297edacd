package fast

import "math"

// One-row products with bfloat16 weights: the decode step of a BF16 model. The weights
// stream from memory at 2 bytes each — half of gemv.go's traffic, so up to twice its speed —
// and are widened to float32 in registers (a bfloat16 is the top half of a float32) and
// accumulated in float32: AVX-512 where the CPU has it, AVX2 otherwise (gemv16_amd64.s),
// and the plain loops below elsewhere, which are also what the tests compare them with.

// widen is a bfloat16 as the float32 it is exactly.
func widen(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// gemvConv1D16 is gemvConv1D with w (C, OC) in bfloat16.
func gemvConv1D16(y, x []float32, w []uint16, C, OC int) {
	splitConv1D(y, C, OC, func(dst []float32, lo, hi int) { gemvRows16(dst, x[lo:hi], w[lo*OC:], OC) })
}

// gemvLogits16 is gemvLogits with wte (V, C) in bfloat16.
func gemvLogits16(y, x []float32, wte []uint16, C, V int) {
	Chunks(V, 1024, func(lo, hi int) {
		gemvDot16(y[lo:hi], x[:C], wte[lo*C:], C)
	})
}

// gemvRows16 adds Σ_i x[i]·widen(w[i·ldw : i·ldw+len(y)]) to y.
func gemvRows16(y, x []float32, w []uint16, ldw int) {
	rows, cols := len(x), len(y)
	if rows == 0 || cols == 0 {
		return
	}
	if len(w) < (rows-1)*ldw+cols {
		panic("gpt/internal/fast: gemv16: weight slice too short")
	}
	r4, cv := rows&^3, 0 // the assembly's part: rows by four, columns by 16 (AVX-512) or 8
	switch {
	case r4 == 0:
	case HasAVX512BF16 && cols >= 16:
		cv = cols &^ 15
		gemvRows16AVX512(&y[0], &x[0], &w[0], r4, cv, ldw)
	case HasAVX2 && cols >= 8:
		cv = cols &^ 7
		gemvRows16AVX2(&y[0], &x[0], &w[0], r4, cv, ldw)
	default:
		r4 = 0
	}
	gemvRows16Go(y[cv:], x[:r4], w[cv:], ldw) // the last few columns of the kernel's rows
	if r4 < rows {
		gemvRows16Go(y, x[r4:], w[r4*ldw:], ldw) // the remaining rows, whole
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

// gemvDot16 sets y[i] = widen(w[i·ldw : i·ldw+len(x)])·x for every i.
func gemvDot16(y, x []float32, w []uint16, ldw int) {
	rows, cols := len(y), len(x)
	if rows == 0 {
		return
	}
	if len(w) < (rows-1)*ldw+cols {
		panic("gpt/internal/fast: gemv16: weight slice too short")
	}
	r4, cv := rows&^3, 0
	switch {
	case r4 == 0:
	case HasAVX512BF16 && cols >= 16:
		cv = cols &^ 15
		gemvDot16AVX512(&y[0], &x[0], &w[0], r4, cv, ldw)
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
