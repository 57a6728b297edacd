package gpt

import "github.com/gptnotes/gptnotes/gpt/internal/fast"

// The seam between the model and its fast kernels. Each step of the forward and backward
// (matmulForward, attentionForward, geluForward, …) is written twice, as nanoGPT's
// CausalSelfAttention keeps its manual attention beside the flash one: the readable loops
// in this package, and one branch away, when useFast is true, the kernel in
// gpt/internal/fast that computes the same thing quickly (a blocked AVX2 sgemm, gemv for
// one row, a fused causal attention, vectorised exponentials, a team of helper goroutines
// that split each step over the cores, and the BLAS behind them). Nothing else in this
// package calls gpt/internal/fast but sampling and the trace, which borrow its float32
// softmax, and importing it changes no other library's state: the
// BLAS it multiplies with is its own, never gonum's process-wide blas32 implementation.

// useFast says whether each step runs its fast kernel or the readable loops beside it. A
// test sets it false to run a whole forward and backward through the readable side and
// compares the two (TestNaiveMatchesFast).
var useFast = true

// BLAS names the matrix-product implementation this build uses (a variable, so that the
// notebook kernel's symbol table, generated once, reports the build it runs in).
var BLAS = fast.BLAS

// parallel runs fn over [0, n): split into one chunk per core (each at least minChunk
// long) when useFast, in one call otherwise. Steps whose fast form is their readable loop
// over independent rows use it.
func parallel(n, minChunk int, fn func(lo, hi int)) {
	if !useFast {
		fn(0, n)
		return
	}
	fast.Chunks(n, minChunk, fn)
}

// parallelRegion is parallel for the steps of an inference forward: r's Body over [0, n)
// with args. A closure handed to the cores escapes to the heap, one allocation per call; a
// fast.Region allocates nothing, so that a cached decode step makes no garbage.
func parallelRegion[A any](r *fast.Region[A], n, minChunk int, args A) {
	if !useFast {
		minChunk = n + 1 // one call
	}
	r.Chunks(n, minChunk, args)
}
