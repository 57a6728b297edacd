package gpt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// Growth is how the norm of the residual stream grows with depth in a model at init: the
// study's figure "residual-stream norm growth, untrained" (package study).
type Growth struct {
	Config Config
	Seed   uint64
	Scaled bool // the residual projections at N(0, 0.02/√(2L)) instead of N(0, 0.02)
	T      int  // positions forwarded
	// Ratio (L+1): the mean over positions of ‖x_l‖/‖x_0‖, where x_0 is the embedding (the
	// input of block 1) and x_l the output of block l; Ratio[0] = 1. ln_f is not applied.
	Ratio []float64
}

// Final is the ratio after the last block, ‖x_L‖/‖x_0‖.
func (g Growth) Final() float64 { return g.Ratio[len(g.Ratio)-1] }

func (g Growth) String() string {
	init := "plain N(0, 0.02)"
	if g.Scaled {
		init = "scaled N(0, 0.02/√(2L))"
	}
	return fmt.Sprintf("residual growth, %d blocks, width %d, %s init, seed %d, %d positions: ‖x_L‖/‖x_0‖ = %.2f",
		g.Config.Layers, g.Config.Channels, init, g.Seed, g.T, g.Final())
}

// HTML renders the ratio at every depth as a table for a notebook cell.
func (g Growth) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<table><caption>%s</caption><tr><th>after</th><th>‖x_l‖/‖x_0‖</th></tr>", g)
	for l, r := range g.Ratio {
		name := "embedding"
		if l > 0 {
			name = fmt.Sprintf("block %d", l)
		}
		fmt.Fprintf(&b, "<tr><td>%s</td><td style=\"text-align:right\">%.2f</td></tr>", name, r)
	}
	b.WriteString("</table>")
	return b.String()
}

// ResidualGrowth forwards T random tokens (drawn from seed) through a model of cfg
// initialised by Init(seed, scaled) and measures the residual stream after every block.
// It builds the model one block at a time, drawing each block's weights from the same
// random stream Init uses, so it measures exactly the model New(cfg)+Init(seed, scaled)
// would be, in the memory of one block: a 48-block model at width 768 fits easily. The
// vocabulary size does not change the figure; a small one (1,024) makes it quick.
func ResidualGrowth(cfg Config, seed uint64, scaled bool, T int) (Growth, error) {
	if err := cfg.Validate(); err != nil {
		return Growth{}, err
	}
	if T < 1 || T > cfg.BlockSize {
		return Growth{}, fmt.Errorf("gpt: residual growth: %d positions, block size is %d", T, cfg.BlockSize)
	}
	C, L := cfg.Channels, cfg.Layers
	residStd := residualStd(L, scaled)
	// The stream of Params.Init: tensors in checkpoint order, normals for every matrix.
	rng := newInitRNG(seed)
	wte := make([]float32, cfg.VocabSize*C)
	wpe := make([]float32, cfg.BlockSize*C)
	normal(rng, wte, 0.02)
	normal(rng, wpe, 0.02)

	ids := growthTokens(cfg, seed, T)
	a := newActivations(cfg, 1, T, false)
	encoderForward(a.encoded, ids, wte, wpe, 1, T, C)
	norm0 := rowNorms(a.encoded, T, C)

	one := cfg
	one.Layers = 1
	blk, err := NewParams(one)
	if err != nil {
		return Growth{}, err
	}
	blockTensors := blk.Tensors[2 : 2+one.tensorsPerBlock()]
	g := Growth{Config: cfg, Seed: seed, Scaled: scaled, T: T, Ratio: []float64{1}}
	x := a.encoded
	r := &run{cfg: cfg, B: 1, T: T, a: a} // fp32, nobody watching: the model's forward
	for l := 0; l < L; l++ {
		for _, t := range blockTensors {
			initTensor(rng, t, residStd)
		}
		x = r.block(l, &blk.H[0], x, a.layer(0, C, cfg.Heads))
		norms := rowNorms(x, T, C)
		var mean float64
		for t := range norms {
			mean += norms[t] / norm0[t]
		}
		g.Ratio = append(g.Ratio, mean/float64(T))
	}
	return g, nil
}

// growthTokens are the T random token ids ResidualGrowth forwards for seed.
func growthTokens(cfg Config, seed uint64, T int) []int {
	ids := make([]int, T)
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := range ids {
		ids[i] = rng.IntN(cfg.VocabSize)
	}
	return ids
}

// rowNorms returns the L2 norm of each of the N rows of x (N, C).
func rowNorms(x []float32, N, C int) []float64 {
	norms := make([]float64, N)
	for n := range norms {
		var s float64
		for _, v := range x[n*C : (n+1)*C] {
			s += float64(v) * float64(v)
		}
		norms[n] = math.Sqrt(s)
	}
	return norms
}
