package gpt

import "github.com/gptnotes/gptnotes/gpt/internal/fast"

// The residual stream: every block adds what its attention and its MLP compute to the
// stream that runs through the model (block.go), x = x + attn(ln_1(x)), x = x + mlp(ln_2(x)).

// residualForward adds two streams: out = inp1 + inp2, all (N).
func residualForward(out, inp1, inp2 []float32, N int) {
	parallelRegion(&residualRegion, N, 1<<16, residualArgs{out, inp1, inp2})
}

// residualArgs are residualForward's operands; residualRegion adds elements lo…hi-1.
type residualArgs struct{ out, inp1, inp2 []float32 }

var residualRegion = fast.Region[residualArgs]{Body: func(a *residualArgs, lo, hi int) {
	for i := lo; i < hi; i++ {
		a.out[i] = a.inp1[i] + a.inp2[i]
	}
}}

// residualBackward is the gradient of residualForward: both inputs get dout.
//
//	dinp1, dinp2, dout (N)
func residualBackward(dinp1, dinp2, dout []float32, N int) {
	for i := 0; i < N; i++ {
		dinp1[i] += dout[i]
		dinp2[i] += dout[i]
	}
}
