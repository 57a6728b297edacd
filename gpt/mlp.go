package gpt

import "math"

// The MLP of a block is c_fc (C → 4C), GELU, c_proj (4C → C); the two products are
// matmulForward calls in block.go. This file holds the nonlinearity.

// geluScale is sqrt(2/π), the constant of GELU's tanh approximation.
var geluScale = float32(math.Sqrt(2 / math.Pi))

// geluForward applies GELU in its tanh approximation, as OpenAI's GPT-2 and Hugging Face
// do (llm.c's gelu_forward): out = ½·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), both (N).
// Since ½(1 + tanh u) = 1/(1 + e^(-2u)), it is computed as x/(1 + e^(-2u)): one float32
// exponential per element, eight at a time in one pass with AVX2 (geluAVX2 in
// exp_amd64.s). out and inp must not overlap.
func geluForward(out, inp []float32, N int) {
	parallelChunks(N, 1<<14, func(lo, hi int) { geluRange(out[lo:hi], inp[lo:hi]) })
}

// geluGo is geluForward's formula one element at a time.
func geluGo(out, inp []float32) {
	for i, x := range inp {
		out[i] = x / (1 + exp32(-2*geluScale*x*(1+0.044715*x*x)))
	}
}

// geluNaive is the reference for geluForward, in float64 with math.Tanh.
func geluNaive(out, inp []float32, N int) {
	for i := 0; i < N; i++ {
		x := float64(inp[i])
		out[i] = float32(0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x))))
	}
}

// geluBackward is the gradient of geluForward (llm.c's gelu_backward). With
// u = √(2/π)·(x + 0.044715·x³) and s = ½(1 + tanh u) = 1/(1 + e^(-2u)):
//
//	d gelu/dx = ½(1 + tanh u) + ½x·(1 - tanh²u)·du/dx
//	          = s + 2x·s·(1-s)·√(2/π)·(1 + 3·0.044715·x²)
//
// using 1 - tanh²u = 4s(1-s), so one float32 exponential per element, like the forward.
//
//	dinp, inp, dout (N)
func geluBackward(dinp, inp, dout []float32, N int) {
	parallelChunks(N, 1<<14, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			x := inp[i]
			u := geluScale * (x + 0.044715*x*x*x)
			s := 1 / (1 + exp32(-2*u))
			local := s + 2*x*s*(1-s)*geluScale*(1+3*0.044715*x*x)
			dinp[i] += local * dout[i]
		}
	})
}
