package gpt

import (
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// The model's matrix products, forward and backward, run on our own AVX2 sgemm
// (sgemm_amd64.go) where the CPU has AVX2 and FMA, in both builds. Every other product, and
// every product on other CPUs, goes through gonum's blas32: gonum's pure-Go BLAS (with
// fastSgemm as its Sgemm where it can), or OpenBLAS through gonum's netlib bindings when
// the package is built with the `openblas` tag (matmul_openblas.go). A product of one row
// (the cached decode step) is a matrix-vector product (gemv) with kernels of our own
// (gemv.go) that stream the weights at the memory's speed.

// BLAS names the matrix-product implementation this build uses, as useBLAS set it (a
// variable, so that the notebook kernel's symbol table, generated once, reports the build
// it runs in).
var BLAS string

// splitGemm says whether the model splits each product over the cores itself: true when
// blas32's Sgemm is a single-threaded library's.
var splitGemm bool

// useBLAS makes base, called name, blas32's implementation, with our sgemm as its Sgemm
// where the CPU has AVX2 and FMA (withFastSgemm). splits says base's Sgemm runs on one core.
func useBLAS(base blas.Float32, name string, splits bool) {
	if hasAVX2 {
		base, name, splits = withFastSgemm(base), "own AVX2 sgemm, "+name+" for the rest", false
	}
	blas32.Use(base)
	BLAS, splitGemm = name, splits
}

// matmulForward computes out = inp·w + bias, the Conv1D of GPT-2 (llm.c's matmul_forward):
//
//	out  (N, OC)
//	inp  (N, C)
//	w    (C, OC)   checkpoint layout [in, out], row-major
//	bias (OC)      or nil
func matmulForward(out, inp, w, bias []float32, N, C, OC int) {
	out = out[:N*OC]
	if hasAVX2 && N > 1 {
		sgemmBias(false, N, OC, C, inp, C, w, OC, bias, out, OC) // sgemm_amd64.go
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
	if N == 1 {
		if bias == nil {
			clear(out)
		}
		gemvConv1D(out, inp, w, C, OC) // gemv.go
		return
	}
	gemmSplit(N, OC, func(r0, r1, c0, c1 int) {
		blas32.Implementation().Sgemm(blas.NoTrans, blas.NoTrans, r1-r0, c1-c0, C,
			1, inp[r0*C:], C, w[c0:], OC, beta, out[r0*OC+c0:], OC)
	})
}

// matmulNaive is the reference for matmulForward: three loops, float64 sums.
func matmulNaive(out, inp, w, bias []float32, N, C, OC int) {
	for n := 0; n < N; n++ {
		for o := 0; o < OC; o++ {
			var s float64
			if bias != nil {
				s = float64(bias[o])
			}
			for i := 0; i < C; i++ {
				s += float64(inp[n*C+i]) * float64(w[i*OC+o])
			}
			out[n*OC+o] = float32(s)
		}
	}
}

// logitsForward applies the tied output layer: out = inp·wteᵀ (GPT-2's lm_head has no bias).
//
//	out (N, V)
//	inp (N, C)   after ln_f
//	wte (V, C)
func logitsForward(out, inp, wte []float32, N, C, V int) {
	if N == 1 {
		gemvLogits(out, inp, wte, C, V) // gemv.go
		return
	}
	gemmSplit(N, V, func(r0, r1, c0, c1 int) {
		blas32.Implementation().Sgemm(blas.NoTrans, blas.Trans, r1-r0, c1-c0, C,
			1, inp[r0*C:], C, wte[c0*C:], C, 0, out[r0*V+c0:], V)
	})
}

// logitsNaive is the reference for logitsForward.
func logitsNaive(out, inp, wte []float32, N, C, V int) {
	for n := 0; n < N; n++ {
		for v := 0; v < V; v++ {
			var s float64
			for i := 0; i < C; i++ {
				s += float64(inp[n*C+i]) * float64(wte[v*C+i])
			}
			out[n*V+v] = float32(s)
		}
	}
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
		parallelChunks(N, 16, func(lo, hi int) { fn(lo, hi, 0, OC) })
	default:
		parallelChunks(OC, 64, func(lo, hi int) { fn(0, N, lo, hi) })
	}
}

// splitRows runs fn over [0, n) in one chunk per core when the model splits the products
// (splitGemm), else in one call.
func splitRows(n, minChunk int, fn func(lo, hi int)) {
	if !splitGemm {
		fn(0, n)
		return
	}
	parallelChunks(n, minChunk, fn)
}

// getFloats takes a slice of at least n floats from pool (contents undefined).
func getFloats(pool *sync.Pool, n int) *[]float32 {
	if p, ok := pool.Get().(*[]float32); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]float32, n)
	return &s
}

// workers is how many goroutines the kernels split work over: one per core.
func workers() int { return runtime.GOMAXPROCS(0) }

// parallelChunks splits [0, n) into one contiguous chunk per worker (each at least
// minChunk long) and runs fn on them concurrently.
func parallelChunks(n, minChunk int, fn func(lo, hi int)) {
	w := workers()
	if w > n/minChunk {
		w = n / minChunk
	}
	if w <= 1 {
		fn(0, n)
		return
	}
	runWorkers(w, func(i int) { fn(n*i/w, n*(i+1)/w) }) // team.go
}

// parallelFor runs fn(worker, i) for every i in [0, n), handing indices to one goroutine
// per core; worker (0 ≤ worker < workers()) lets fn use per-goroutine scratch.
func parallelFor(n int, fn func(worker, i int)) {
	w := workers()
	if w > n {
		w = n
	}
	if w <= 1 {
		for i := 0; i < n; i++ {
			fn(0, i)
		}
		return
	}
	var mu sync.Mutex
	next := 0
	work := func(k int) {
		for {
			mu.Lock()
			i := next
			next++
			mu.Unlock()
			if i >= n {
				return
			}
			fn(k, i)
		}
	}
	runWorkers(w, work)
}

// matmulBackward is the gradient of matmulForward, out = inp·w + bias (llm.c's
// matmul_backward), as three products:
//
//	dinp  (N, C)  += dout · wᵀ      dout (N, OC)
//	dw    (C, OC) += inpᵀ · dout    inp  (N, C)    w (C, OC)
//	dbias (OC)    += Σ_n dout[n]    (dbias nil: no bias)
//
// When the model splits the products (splitGemm), dinp is split by rows, dw by its rows
// (the input channels).
func matmulBackward(dinp, dw, dbias, dout, inp, w []float32, N, C, OC int) {
	impl := blas32.Implementation()
	splitRows(N, 16, func(lo, hi int) {
		impl.Sgemm(blas.NoTrans, blas.Trans, hi-lo, C, OC, 1, dout[lo*OC:], OC, w, OC, 1, dinp[lo*C:], C)
	})
	splitRows(C, 8, func(lo, hi int) {
		impl.Sgemm(blas.Trans, blas.NoTrans, hi-lo, OC, N, 1, inp[lo:], C, dout, OC, 1, dw[lo*OC:], OC)
	})
	if dbias != nil {
		parallelChunks(OC, 64, func(lo, hi int) {
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

// logitsBackward is the gradient of logitsForward, out = inp·wteᵀ:
//
//	dinp (N, C) += dout · wte       dout (N, V)
//	dwte (V, C) += doutᵀ · inp      inp (N, C)   wte (V, C)
func logitsBackward(dinp, dwte, dout, inp, wte []float32, N, C, V int) {
	impl := blas32.Implementation()
	splitRows(N, 16, func(lo, hi int) {
		impl.Sgemm(blas.NoTrans, blas.NoTrans, hi-lo, C, V, 1, dout[lo*V:], V, wte, C, 1, dinp[lo*C:], C)
	})
	splitRows(V, 64, func(lo, hi int) {
		impl.Sgemm(blas.Trans, blas.NoTrans, hi-lo, C, N, 1, dout[lo:], V, inp, C, 1, dwte[lo*C:], C)
	})
}
