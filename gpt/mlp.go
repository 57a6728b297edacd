package gpt

import (
	"math"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// mlp is the MLP sublayer of block l on ln_2's output a.ln2, up to its write to the
// stream, a.fcproj: c_fc (C → 4C), GELU, c_proj (4C → C).
func (r *run) mlp(l int, w *Block, a layerActs) {
	N, C := r.B*r.T, r.cfg.Channels
	conv1D(a.fch, a.ln2, w.CFcW, w.cFcW16, w.CFcB, N, C, 4*C)
	r.at(l, "mlp.hook_pre", a.fch)
	geluForward(a.fchGelu, a.fch, N*4*C)
	r.at(l, "mlp.hook_post", a.fchGelu)
	conv1D(a.fcproj, a.fchGelu, w.MlpCProjW, w.mlpCProjW16, w.MlpCProjB, N, 4*C, C)
	r.at(l, "hook_mlp_out", a.fcproj)
}

// geluForward applies GELU in its tanh approximation, as OpenAI's GPT-2 and Hugging Face
// do (llm.c's gelu_forward), both (N):
//
//	out = ½·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
//
// The fast kernel computes ½(1 + tanh u) as 1/(1 + e^(-2u)) with a float32 exponential,
// eight elements at a time. out and inp must not overlap.
func geluForward(out, inp []float32, N int) {
	if useFast {
		fast.Gelu(out, inp, N)
		return
	}
	for i := 0; i < N; i++ {
		x := float64(inp[i])
		out[i] = float32(0.5 * x * (1 + math.Tanh(geluScale*(x+0.044715*x*x*x))))
	}
}

// geluScale is sqrt(2/π), the constant of GELU's tanh approximation.
var geluScale = math.Sqrt(2 / math.Pi)

// geluBackward is the gradient of geluForward (llm.c's gelu_backward). With
// u = √(2/π)·(x + 0.044715·x³):
//
//	d gelu/dx = ½(1 + tanh u) + ½x·(1 - tanh²u)·√(2/π)·(1 + 3·0.044715·x²)
//
//	dinp, inp, dout (N)
func geluBackward(dinp, inp, dout []float32, N int) {
	if useFast {
		fast.GeluBackward(dinp, inp, dout, N)
		return
	}
	for i := 0; i < N; i++ {
		x := float64(inp[i])
		th := math.Tanh(geluScale * (x + 0.044715*x*x*x))
		local := 0.5*(1+th) + 0.5*x*(1-th*th)*geluScale*(1+3*0.044715*x*x)
		dinp[i] += float32(local) * dout[i]
	}
}
