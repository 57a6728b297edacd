package fast

import (
	"gonum.org/v1/gonum/blas"
)

// The model's matrix products, forward and backward, run on our own sgemm (sgemm.go) where
// the CPU has its kernels (AVX2 and FMA on amd64, NEON on arm64: hasKernels), in both builds. Every other product, and
// every product on other CPUs, goes through impl: gonum's pure-Go BLAS (blas_purego.go), or
// OpenBLAS through gonum's netlib bindings when the package is built with the `openblas`
// tag (blas_openblas.go). impl is ours alone: gonum's process-wide blas32 implementation is
// never replaced. A product of one row (the cached decode step) is a matrix-vector product
// (gemv) with kernels of our own (gemv.go) that stream the weights at the memory's speed;
// one of 5 to 16 rows (a short prompt's) runs on amd64 on the micro-kernel reading the
// weights in place, without the sgemm's packing pass (fewrows.go).

// BLAS names the matrix-product implementation this build uses, as useBLAS set it.
var BLAS string

// impl is the BLAS every product that is not our own runs on, with our sgemm as its Sgemm
// where the CPU has its kernels.
var impl blas.Float32

// splitGemm says whether the kernels split each product over the cores themselves: true
// when impl's Sgemm is a single-threaded library's.
var splitGemm bool

// useBLAS makes base, called name, the implementation of the products, with our sgemm as
// its Sgemm where the CPU has its kernels (withFastSgemm). splits says base's Sgemm runs
// on one core.
func useBLAS(base blas.Float32, name string, splits bool) {
	if hasKernels() {
		base, name, splits = withFastSgemm(base), "own "+kernelsName+" sgemm, "+name+" for the rest", false
	}
	impl = base
	BLAS, splitGemm = name, splits
}

// MatmulForward computes out = inp·w + bias, the Conv1D of GPT-2:
//
//	out  (N, OC)
//	inp  (N, C)
//	w    (C, OC)   checkpoint layout [in, out], row-major
//	bias (OC)      or nil
func MatmulForward(out, inp, w, bias []float32, N, C, OC int) {
	out = out[:N*OC]
	if fewRows(N) {
		fewConv1D(out, inp, w, nil, bias, N, C, OC) // fewrows.go
		return
	}
	if hasKernels() && N > GemvMaxRows {
		sgemmBias(false, N, OC, C, inp, C, w, OC, bias, out, OC) // sgemm.go
		return
	}
	if bias != nil {
		for n := 0; n < N; n++ {
			copy(out[n*OC:(n+1)*OC], bias[:OC])
		}
	}
	beta := float32(0)
	if bias != nil {
		beta = 1
	}
	if N == 1 || hasKernels() { // a few rows: hasKernels took more above
		if bias == nil {
			clear(out)
		}
		gemvConv1D(out, inp, w, N, C, OC) // gemv.go
		return
	}
	gemmBLAS(out, inp, w, beta, N, C, OC)
}

// gemmBLAS sets out (N, OC) to inp (N, C)·w (C, OC) + beta·out on this build's BLAS, split
// over the cores (gemmSplit). (A function of its own: MatmulForward's out, captured by the
// closure, would move to the heap on every call, the one-row ones too.)
func gemmBLAS(out, inp, w []float32, beta float32, N, C, OC int) {
	gemmSplit(N, OC, func(r0, r1, c0, c1 int) {
		impl.Sgemm(blas.NoTrans, blas.NoTrans, r1-r0, c1-c0, C,
			1, inp[r0*C:], C, w[c0:], OC, beta, out[r0*OC+c0:], OC)
	})
}

// Logits applies the tied output layer: out = inp·wteᵀ, row n of out at out[n·ldo:]
// (ldo is V unless out is a strip of wider rows):
//
//	out (N, V)   stride ldo
//	inp (N, C)
//	wte (V, C)
func Logits(out []float32, ldo int, inp, wte []float32, N, C, V int) {
	if N == 1 || N <= GemvMaxRows && hasKernels() {
		gemvLogits(out, ldo, inp, wte, N, C, V) // gemv.go
		return
	}
	gemmSplit(N, V, func(r0, r1, c0, c1 int) {
		impl.Sgemm(blas.NoTrans, blas.Trans, r1-r0, c1-c0, C,
			1, inp[r0*C:], C, wte[c0*C:], C, 0, out[r0*ldo+c0:], ldo)
	})
}

// gemmSplit splits the product behind an (N, OC) output over the cores when this build's
// BLAS does not (see splitGemm). Each core's gemm packs the operand the cores share: all of
// B (K, OC) when they split the rows of the output, all of A (N, K) when they split its
// columns. So the split goes along the longer side: columns for c_attn, c_fc and the
// output layer of a 1,024-position forward (and for a few positions), rows for the two
// projections back to C. (Forward of Small over 1,024 positions, twelve interleaved pairs:
// the column split of the wide products won ten.)
func gemmSplit(N, OC int, fn func(r0, r1, c0, c1 int)) {
	switch {
	case !splitGemm:
		fn(0, N, 0, OC)
	case N >= OC:
		Chunks(N, 16, func(lo, hi int) { fn(lo, hi, 0, OC) })
	default:
		Chunks(OC, 64, func(lo, hi int) { fn(0, N, lo, hi) })
	}
}

// splitRows runs fn over [0, n) in one chunk per core when the kernels split the products
// (splitGemm), else in one call.
func splitRows(n, minChunk int, fn func(lo, hi int)) {
	if !splitGemm {
		fn(0, n)
		return
	}
	Chunks(n, minChunk, fn)
}

// MatmulBackward is the gradient of MatmulForward, as three products:
//
//	dinp  (N, C)  += dout · wᵀ      dout (N, OC)
//	dw    (C, OC) += inpᵀ · dout    inp  (N, C)    w (C, OC)
//	dbias (OC)    += Σ_n dout[n]    (dbias nil: no bias)
//
// When the kernels split the products (splitGemm), dinp is split by rows, dw by its rows
// (the input channels).
func MatmulBackward(dinp, dw, dbias, dout, inp, w []float32, N, C, OC int) {
	splitRows(N, 16, func(lo, hi int) {
		impl.Sgemm(blas.NoTrans, blas.Trans, hi-lo, C, OC, 1, dout[lo*OC:], OC, w, OC, 1, dinp[lo*C:], C)
	})
	splitRows(C, 8, func(lo, hi int) {
		impl.Sgemm(blas.Trans, blas.NoTrans, hi-lo, OC, N, 1, inp[lo:], C, dout, OC, 1, dw[lo*OC:], OC)
	})
	if dbias != nil {
		Chunks(OC, 64, func(lo, hi int) {
			for n := 0; n < N; n++ {
				d := dout[n*OC+lo : n*OC+hi]
				db := dbias[lo:hi]
				for o := range d {
					db[o] += d[o]
				}
			}
		})
	}
}

// LogitsBackward is the gradient of Logits (with ldo = V), out = inp·wteᵀ:
//
//	dinp (N, C) += dout · wte       dout (N, V)
//	dwte (V, C) += doutᵀ · inp      inp (N, C)   wte (V, C)
func LogitsBackward(dinp, dwte, dout, inp, wte []float32, N, C, V int) {
	splitRows(N, 16, func(lo, hi int) {
		impl.Sgemm(blas.NoTrans, blas.NoTrans, hi-lo, C, V, 1, dout[lo*V:], V, wte, C, 1, dinp[lo*C:], C)
	})
	splitRows(V, 64, func(lo, hi int) {
		impl.Sgemm(blas.Trans, blas.NoTrans, hi-lo, C, N, 1, dout[lo:], V, inp, C, 1, dwte[lo*C:], C)
	})
}
