//go:build amd64

package fast

import (
	"math"
	"sync"
)

//go:generate go run gen_fewrowsdp.go

// Products of a few rows: a prompt of 5 to 16 tokens. The sgemm (sgemm.go) first packs all
// of op(B) into panels — for a Conv1D, every weight of the matrix, read and written once
// more before the micro-kernel reads it again — which pays only when many rows share each
// panel; with a few rows the packing pass is most of the product's time (an 11-token prompt's
// forward of Small took 3–4 decode steps). The one-row kernels (gemv.go), run row after row,
// read the weights once but do one FMA per load. Here the sgemm's 6×16 micro-kernel reads
// both operands in place instead (fewrows_amd64.s): six rows of x, and sixteen columns of w
// straight from its rows, so each weight comes from memory once and serves six rows from a
// register. Each output is summed in the sgemm's order (blocks of kcFor(C) steps, a chain of
// FMAs in each), so a product gives the same numbers here as on the sgemm, to the bit.
//
// The cores split the columns of the output, sixteen at a time; rows past the last whole
// tile of six go through a tile of scratch padded with zero rows.

// FewMaxRows is the most rows a product runs on the few-rows kernels, which take every
// product of more than GemvMaxRows rows up to it. (BenchmarkFewRows, under load: in fp32
// they beat the sgemm at every count up to 64 rows; on VDPBF16PS they beat the packed
// product up to 24 rows and were level with it at 32 and 64.)
const FewMaxRows = 16

// fewRows says whether a product of N rows runs on the few-rows kernel.
func fewRows(N int) bool { return N > GemvMaxRows && N <= FewMaxRows && HasAVX2 }

// fewArgs are the operands of a few-rows Conv1D, out (N, OC) = x (N, C)·w (C, OC) + bias,
// with w in fp32 or, when w16 is set, bfloat16; the rows past the whole tiles of six go
// through xs (6, C), a copy padded with zeros, and ys (6, OC).
type fewArgs struct {
	out, x, w, bias []float32
	w16             []uint16
	xs, ys          []float32
	N, C, OC, kc    int
}

// fewConv1D sets out (N, OC) = x (N, C)·w (C, OC) + bias (OC, or nil), N ≤ FewMaxRows,
// with w in fp32 or, when w16 is not nil, bfloat16.
func fewConv1D(out, x, w []float32, w16 []uint16, bias []float32, N, C, OC int) {
	if len(x) < N*C || len(out) < N*OC || len(w) < C*OC && len(w16) < C*OC || bias != nil && len(bias) < OC {
		panic("gpt/internal/fast: few rows: short slice")
	}
	a := fewArgs{out: out, x: x, w: w, w16: w16, bias: bias, N: N, C: C, OC: OC, kc: kcFor(C)}
	whole := N / mr * mr
	if whole < N {
		buf := getFloats(&fewScratch, mr*(C+OC))
		defer fewScratch.Put(buf)
		a.xs, a.ys = (*buf)[:mr*C], (*buf)[mr*C:]
		copy(a.xs, x[whole*C:N*C])
		clear(a.xs[(N-whole)*C:])
	}
	panels := OC / nr
	fewRegion.Chunks(panels, 4, a)
	if whole < N {
		copy(out[whole*OC:N*OC], a.ys)
	}
	if a.kc == C && bias != nil { // the chains ran from zero: now the bias, as the sgemm adds it
		for n := range N {
			row := out[n*OC : n*OC+panels*nr]
			for j := range row {
				row[j] += bias[j]
			}
		}
	}
	if c16 := panels * nr; c16 < OC {
		fewColumnsGo(&a, c16)
	}
}

// fewScratch holds fewConv1D's padded tile from call to call.
var fewScratch sync.Pool

// fewStep is how many steps of the shared dimension (rows of w) fewRegion takes at a time
// when the sgemm sums all of them in one block (C ≤ 768): a stretch of rows read in memory
// order, which stays in the core's cache while every tile of six rows runs over it.
var fewStep = 64

// fewRegion computes panels lo…hi-1 (sixteen columns each) of the output, a block of rows
// of w at a time (the core's share of each row one stretch of memory): every panel, and
// for each every tile of six rows, against the block. Where the sgemm sums all of C in one
// chain (kcFor(C) = C), the chains run on across blocks through the output (cont), from
// zero, and fewConv1D adds the bias after, as the sgemm does; where it sums blocks of kc and
// adds them up, the blocks here are the same.
var fewRegion = Region[fewArgs]{Body: func(a *fewArgs, lo, hi int) {
	C, OC := a.C, a.OC
	whole := a.N / mr * mr
	step := a.kc
	if a.kc == C {
		step = fewStep
	}
	for p0 := 0; p0 < C; p0 += step {
		kc := min(step, C-p0)
		var bias *float32 // the first block stores, with the bias; the others add or go on
		cont := p0 > 0 && a.kc == C
		for q := lo; q < hi; q++ {
			j := q * nr
			if p0 == 0 {
				bias = &zeros16[0]
				if a.bias != nil && a.kc < C {
					bias = &a.bias[j]
				}
			}
			for i := 0; i < a.N; i += mr {
				x, ldx, y := a.x[i*C+p0:], C, a.out[i*OC+j:]
				if i == whole {
					x, y = a.xs[p0:], a.ys[j:]
				}
				if a.w16 != nil {
					kernRows6x16H(kc, &x[0], ldx, &a.w16[p0*OC+j], OC, &y[0], OC, bias, cont)
				} else {
					kernRows6x16(kc, &x[0], ldx, &a.w[p0*OC+j], OC, &y[0], OC, bias, cont)
				}
			}
		}
	}
}}

// fewColumnsGo computes the last columns c0…OC-1 of fewConv1D's output, past its panels of
// sixteen, with plain loops in the same order of sums.
func fewColumnsGo(a *fewArgs, c0 int) {
	for n := range a.N {
		for j := c0; j < a.OC; j++ {
			for p0 := 0; p0 < a.C; p0 += a.kc {
				var s float32
				for p := p0; p < min(p0+a.kc, a.C); p++ {
					wv := float32(0)
					if a.w16 != nil {
						wv = widen(a.w16[p*a.OC+j])
					} else {
						wv = a.w[p*a.OC+j]
					}
					s += a.x[n*a.C+p] * wv
				}
				switch {
				case p0 > 0:
					a.out[n*a.OC+j] += s
				case a.bias != nil:
					a.out[n*a.OC+j] = s + a.bias[j]
				default:
					a.out[n*a.OC+j] = s
				}
			}
		}
	}
}

// With bfloat16 weights on a CPU with AVX-512 BF16, a tile is all the rows of x up to
// fewDPRows (12) by 32 columns on VDPBF16PS (fewrowsdp_amd64.s, one kernel for each tile
// height), so each weight is read once for a prompt of up to twelve rows and once for each
// of two tiles above; the row count of a tile is its kernel's, with no rows of zeros. The
// activations are rounded to bfloat16 first, as the many-row products round them, and laid
// out pair after pair, the tile's rows side by side. Each output is one chain over all of C
// from zero, the bias added at the end, so a product gives the same bits as the packed
// product's (dpbf16_amd64.go) wherever that one sums C in one block (C ≤ 768, even).

// fewDPArgs are the operands of fewConv1D16DP: out (N, OC) = x (N, C)·w (C, OC) + bias,
// xp the rows of x rounded to bfloat16, tile after tile ([pair][row] in each), and rows the
// height of every tile but the last.
type fewDPArgs struct {
	out, bias []float32
	xp        []uint32
	w         []uint16
	N, C, OC  int
	rows      int
}

// fewConv1D16DP sets out (N, OC) = x (N, C)·w (C, OC) + bias (OC, or nil), N ≤
// FewMaxRows, w in bfloat16 and x rounded to bfloat16, on VDPBF16PS.
func fewConv1D16DP(out, x []float32, w []uint16, bias []float32, N, C, OC int) {
	if len(x) < N*C || len(out) < N*OC || len(w) < C*OC || bias != nil && len(bias) < OC {
		panic("gpt/internal/fast: few rows: short slice")
	}
	kp := C / 2
	tiles := (N + fewDPRows - 1) / fewDPRows
	xp := getUint32s(&fewPairs, N*kp)
	defer fewPairs.Put(xp)
	a := fewDPArgs{out: out, bias: bias, xp: *xp, w: w, N: N, C: C, OC: OC, rows: (N + tiles - 1) / tiles}
	xr := getFloats(&fewScratch, N*C) // x rounded, eight at a time, before it is laid out in pairs
	defer fewScratch.Put(xr)
	copy(*xr, x[:N*C])
	RoundBF16(*xr)
	for i0 := 0; i0 < N; i0 += a.rows {
		n := min(a.rows, N-i0)
		tile := a.xp[i0*kp : (i0+n)*kp]
		for i := range n {
			row := (*xr)[(i0+i)*C:][:2*kp]
			for q := range kp { // the low half of a rounded float32 is zero: its bfloat16 is the high half
				tile[q*n+i] = math.Float32bits(row[2*q])>>16 | math.Float32bits(row[2*q+1])
			}
		}
	}
	panels := OC / 32
	c32 := panels * 32
	if kp > 0 {
		fewDPRegion.Chunks(panels, 2, a)
	} else { // C = 1: no pair, only the last step below
		for n := range N {
			if bias != nil {
				copy(out[n*OC:n*OC+c32], bias[:c32])
			} else {
				clear(out[n*OC : n*OC+c32])
			}
		}
	}
	for n := range N { // the last step when C is odd, and the columns past the panels
		xr := x[n*C : (n+1)*C]
		if C%2 == 1 {
			xl, wl := widen(uint16(toBF16(xr[C-1]))), w[(C-1)*OC:]
			for j := range c32 {
				out[n*OC+j] += xl * widen(wl[j])
			}
		}
		for j := c32; j < OC; j++ {
			var s float32
			if bias != nil {
				s = bias[j]
			}
			for p, v := range xr {
				s += widen(uint16(toBF16(v))) * widen(w[p*OC+j])
			}
			out[n*OC+j] = s
		}
	}
}

// fewPairs holds fewConv1D16DP's activations in pairs from call to call.
var fewPairs sync.Pool

// fewDPRegion computes panels lo…hi-1 (32 columns each) of fewConv1D16DP's output, every
// tile of rows against each.
var fewDPRegion = Region[fewDPArgs]{Body: func(a *fewDPArgs, lo, hi int) {
	OC, kp := a.OC, a.C/2
	for q := lo; q < hi; q++ {
		j := q * 32
		bias := &zeros32[0] // dpbf16_amd64.go's: 32 columns of zeros
		if a.bias != nil {
			bias = &a.bias[j]
		}
		for i0 := 0; i0 < a.N; i0 += a.rows {
			n := min(a.rows, a.N-i0)
			kernRowsDP[n](kp, &a.xp[i0*kp], &a.w[j], OC, &a.out[i0*OC+j], OC, bias)
		}
	}
}}
