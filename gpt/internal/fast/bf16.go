package fast

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
)

// The products of a BF16 model, whose matrices are stored as bfloat16 (2 bytes each) and
// never as a float32 copy. The activations stay float32 (rounded to bfloat16 values by the
// model), and every product accumulates in float32:
//
//   - one row (a cached decode step): gemv16.go, on VDPBF16PS where the CPU has AVX-512 BF16,
//     otherwise widening the weights in registers;
//   - 5 to 16 rows (a short prompt): fewrows.go, the weights read in place, on VDPBF16PS
//     or widened in registers;
//   - many rows, AVX-512 BF16: VDPBF16PS on pairs of bfloat16 (dpbf16_amd64.go), the
//     activations rounded to bfloat16 as they are packed (in a BF16 model they are
//     bfloat16 values already);
//   - many rows, AVX2 or NEON: our sgemm, widening each 16-column panel of weights as it packs it
//     (the panel is a few kB in cache, not a copy of the matrix);
//   - many rows elsewhere: a strip of rows of the matrix widened at a time into a scratch,
//     then this build's BLAS.

// stripFloats bounds the float32 scratch of the portable path: 4 MB.
const stripFloats = 1 << 20

// MatmulForward16 is MatmulForward with w (C, OC) in bfloat16:
//
//	out  (N, OC)
//	inp  (N, C)
//	w    (C, OC)   bfloat16, checkpoint layout [in, out]
//	bias (OC)      or nil
func MatmulForward16(out, inp []float32, w []uint16, bias []float32, N, C, OC int) {
	out = out[:N*OC]
	if len(w) < C*OC {
		panic("gpt/internal/fast: matmul16: weight slice too short")
	}
	switch {
	case gemv16Rows(N):
	case fewRows(N) && HasAVX512BF16:
		fewConv1D16DP(out, inp, w, bias, N, C, OC) // fewrows.go
		return
	case fewRows(N):
		fewConv1D(out, inp, nil, w, bias, N, C, OC)
		return
	case HasAVX512BF16:
		dpGemmBias16(false, N, OC, C, inp, C, w, OC, bias, out, OC) // dpbf16_amd64.go
		return
	case hasKernels():
		sgemmBias16(false, N, OC, C, inp, C, w, OC, bias, out, OC) // sgemm.go
		return
	}
	for n := 0; n < N; n++ {
		if bias != nil {
			copy(out[n*OC:(n+1)*OC], bias[:OC])
		} else {
			clear(out[n*OC : (n+1)*OC])
		}
	}
	if gemv16Rows(N) {
		gemvConv1D16(out, inp, w, N, C, OC) // gemv16.go
		return
	}
	matmulStrips16(out, inp, w, N, C, OC)
}

// matmulStrips16 adds inp (N, C)·w (C, OC) to out (N, OC) on this build's BLAS, a strip of
// rows of w (steps of the shared dimension) widened at a time. (A function of its own:
// MatmulForward16's out, captured by the closure, would move to the heap on every call.)
func matmulStrips16(out, inp []float32, w []uint16, N, C, OC int) {
	rows := max(1, min(C, stripFloats/OC))
	buf := getFloats(&strip16, rows*OC)
	defer strip16.Put(buf)
	for k0 := 0; k0 < C; k0 += rows {
		k1 := min(C, k0+rows)
		ws := (*buf)[:(k1-k0)*OC]
		widenAll(ws, w[k0*OC:k1*OC])
		gemmSplit(N, OC, func(r0, r1, c0, c1 int) {
			impl.Sgemm(blas.NoTrans, blas.NoTrans, r1-r0, c1-c0, k1-k0,
				1, inp[r0*C+k0:], C, ws[c0:], OC, 1, out[r0*OC+c0:], OC)
		})
	}
}

// Logits16 is Logits with wte (V, C) in bfloat16: out = inp·wteᵀ, row n of out at out[n·ldo:].
func Logits16(out []float32, ldo int, inp []float32, wte []uint16, N, C, V int) {
	if len(wte) < V*C {
		panic("gpt/internal/fast: logits16: token table too short")
	}
	switch {
	case gemv16Rows(N):
		gemvLogits16(out, ldo, inp, wte, N, C, V) // gemv16.go
		return
	case HasAVX512BF16:
		dpGemmBias16(true, N, V, C, inp, C, wte, C, nil, out, ldo)
		return
	case hasKernels():
		sgemmBias16(true, N, V, C, inp, C, wte, C, nil, out, ldo)
		return
	}
	rows := max(1, min(V, stripFloats/C)) // token rows widened at a time
	buf := getFloats(&strip16, rows*C)
	defer strip16.Put(buf)
	for v0 := 0; v0 < V; v0 += rows {
		v1 := min(V, v0+rows)
		ws := (*buf)[:(v1-v0)*C]
		widenAll(ws, wte[v0*C:v1*C])
		gemmSplit(N, v1-v0, func(r0, r1, c0, c1 int) {
			impl.Sgemm(blas.NoTrans, blas.Trans, r1-r0, c1-c0, C,
				1, inp[r0*C:], C, ws[c0*C:], C, 0, out[r0*ldo+v0+c0:], ldo)
		})
	}
}

// strip16 holds the portable path's widened strip from call to call.
var strip16 sync.Pool

// toBF16 rounds f to the nearest bfloat16, ties to even (NaN stays NaN): gpt's float32ToBF16.
func toBF16(f float32) uint32 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return b>>16 | 0x40
	}
	return (b + 0x7fff + (b>>16)&1) >> 16
}

// widenAll sets dst[i] to src[i] widened, split over the cores.
func widenAll(dst []float32, src []uint16) {
	Chunks(len(src), 1<<14, func(lo, hi int) {
		for i, h := range src[lo:hi] {
			dst[lo+i] = widen(h)
		}
	})
}
