package gpt

import (
	"math"
	"math/rand/v2"
	"strings"
)

// Init fills the parameters the way GPT-2 was initialised: every matrix and both tables
// from N(0, 0.02), biases 0, LayerNorm weights 1 and biases 0. With scaled, the two
// matrices that write into the residual stream in each block (attn.c_proj and mlp.c_proj)
// use N(0, 0.02/sqrt(2L)) instead, so the stream does not grow with depth.
// The same seed gives the same numbers on every machine (math/rand/v2's PCG).
func (p *Params) Init(seed uint64, scaled bool) {
	rng := newInitRNG(seed)
	residStd := residualStd(len(p.H), scaled)
	for _, t := range p.Tensors {
		initTensor(rng, t, residStd)
	}
}

// newInitRNG is the random stream Init draws from for seed.
func newInitRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// residualStd is the standard deviation of the residual writes (attn.c_proj, mlp.c_proj) of
// a model of L blocks: 0.02/√(2L) when scaled, else 0.02.
func residualStd(L int, scaled bool) float64 {
	if scaled {
		return 0.02 / math.Sqrt(2*float64(L))
	}
	return 0.02
}

// initTensor fills one tensor by GPT-2's rule: LayerNorm weights 1, biases and LayerNorm
// biases 0, the residual writes N(0, residStd), every other matrix and both tables N(0, 0.02).
func initTensor(rng *rand.Rand, t Tensor, residStd float64) {
	switch {
	case strings.HasSuffix(t.Name, "ln_1.weight"), strings.HasSuffix(t.Name, "ln_2.weight"),
		t.Name == "ln_f.weight":
		fill(t.Data, 1)
	case len(t.Shape) == 1: // biases and LayerNorm biases
		fill(t.Data, 0)
	case strings.HasSuffix(t.Name, "c_proj.weight"):
		normal(rng, t.Data, residStd)
	default:
		normal(rng, t.Data, 0.02)
	}
}

func fill(x []float32, v float32) {
	for i := range x {
		x[i] = v
	}
}

func normal(rng *rand.Rand, x []float32, std float64) {
	for i := range x {
		x[i] = float32(rng.NormFloat64() * std)
	}
}
