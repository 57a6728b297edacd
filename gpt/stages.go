package gpt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// A cached decode step, split into the stages that take its time. A step reads every
// weight once for two FLOPs each, so the memory's bandwidth bounds it; these are the
// stages a table puts against that ceiling (`gptnotes bench`), each timed on the model's
// own weights and kernels, interleaved with a Generator's real steps so that all of them
// share the machine's moments.

// DecodeStages is a decode step of one model: a Generator's step, and the stages of it.
type DecodeStages struct {
	Precision string      `json:"precision"` // "fp32" or "bf16"
	Context   int         `json:"context"`   // positions in the cache at the first timed step
	Steps     int         `json:"steps"`     // steps timed; each figure is the median over them
	Stages    []StepStage `json:"stages"`
	// Paired puts each step against a read of the model's own weights by the stream probe
	// just before it: the same bytes, at the same moment.
	Paired StreamPair `json:"paired"`
}

// StreamPair is the stream probe read beside each step. On a shared or virtual machine
// the memory's bandwidth moves from one second to the next (35 to 58 GB/s within minutes
// on the machine the project is tested on), so a ceiling measured at the start and the end
// of a run can be far from the one a step had; a read of the same bytes just before the
// step had nearly the same.
type StreamPair struct {
	Bytes   int     `json:"bytes"`   // the weights read, e.g. 497759232
	Seconds float64 `json:"seconds"` // the read's median time
	// Fraction is the median over the steps of the step's rate (the bytes it must read over
	// its time) over the read's rate: the step's speed as a fraction of the stream's at its
	// moment. Low and High are the quartiles.
	Fraction     float64 `json:"fraction"`
	FractionLow  float64 `json:"fraction_low"`
	FractionHigh float64 `json:"fraction_high"`
}

// StepStage is one part of a decode step: its median time, and the bytes it must read at least
// (weights and cache; 0 for a stage no bandwidth bounds).
type StepStage struct {
	Name    string  `json:"name"`    // e.g. "blocks' products"
	Seconds float64 `json:"seconds"` // the median over the steps
	Bytes   int     `json:"bytes"`   // e.g. 339738624 for Small's blocks in fp32
	// Part says where the stage sits: "step" (the whole Generator step), "forward" (the
	// step's forward, within the step), "in forward" (a stage within the forward), or
	// "in step" (the Generator's own work, outside the forward).
	Part string `json:"part"`
}

// The names of the stages, in the order of a step.
const (
	StageStep    = "the step (a Generator's)"
	StageForward = "its forward (ForwardCached of one token)"
	StageBlocks  = "blocks' products (4 a layer)"
	StageAttn    = "attention over the cache"
	StageNorm    = "LayerNorm (2 a layer, and ln_f)"
	StageOutput  = "output layer (wte)"
	StageRest    = "the rest of the forward, by difference"
	StageOwnWork = "the Generator's own work"
	stageProbe   = "the stream probe over the weights"
)

// MeasureDecodeStages times steps cached decode steps of m after a prompt of context random
// tokens, and beside each step the stages of one on the model's weights: the blocks' four
// one-row products a layer, attention over the cache of the step (every layer), the
// LayerNorms, and the output layer. The forward's time comes from the step itself, and so
// does the Generator's own work (sampling, the model's probabilities, the top candidates:
// the step's time less its forward's); the rest of the forward (the embedding, GELU, the
// residual adds, a BF16 model's rounding, the hand-offs between cores) is what the timed
// stages leave of it. Before each step the stream probe reads the model's weights
// (fast.StreamReadWeights), and the step is put against that read (Paired). context+steps
// must fit in the block.
func MeasureDecodeStages(m *Model, context, steps int) (*DecodeStages, error) {
	cfg := m.Config
	C, L, V, NH := cfg.Channels, cfg.Layers, cfg.VocabSize, cfg.Heads
	if context < 1 || steps < 1 || context+steps > cfg.BlockSize {
		return nil, fmt.Errorf("gpt: decode stages: %d positions and %d steps, want ≥ 1 each and at most the block's %d in all", context, steps, cfg.BlockSize)
	}
	rng := rand.New(rand.NewPCG(uint64(context), 11))
	prompt := make([]int, context)
	for i := range prompt {
		prompt[i] = rng.IntN(V)
	}
	g, err := NewGenerator(m, prompt, Greedy, true)
	if err != nil {
		return nil, err
	}
	if _, err := g.Step(); err != nil { // the prompt's forward, not timed
		return nil, err
	}

	// The stages' operands: a row of activations, and one of q|k|v for attention.
	x, y := make([]float32, 4*C), make([]float32, max(4*C, V))
	qkv, z := make([]float32, 3*C), make([]float32, C)
	for i := range x {
		x[i] = RoundBF16(float32(rng.NormFloat64()))
	}
	for i := range qkv {
		qkv[i] = RoundBF16(float32(rng.NormFloat64()))
	}
	times := make(map[string][]time.Duration)
	timed := func(name string, f func()) {
		t := time.Now()
		f()
		times[name] = append(times[name], time.Since(t))
	}
	blocks := func() {
		for l := 0; l < L; l++ {
			w := m.block(l)
			conv1D(y, x[:C], w.CAttnW, w.cAttnW16, w.CAttnB, 1, C, 3*C)
			conv1D(y, x[:C], w.AttnCProjW, w.attnCProjW16, w.AttnCProjB, 1, C, C)
			conv1D(y, x[:C], w.CFcW, w.cFcW16, w.CFcB, 1, C, 4*C)
			conv1D(y, x, w.MlpCProjW, w.mlpCProjW16, w.MlpCProjB, 1, 4*C, C)
		}
	}
	attention := func() { // the queries of one new position over every cached key, each layer
		pos0 := g.cache.Len() - 1
		for l := 0; l < L; l++ {
			if m.Precision == BF16 {
				kc, vc := g.cache.full16(l)
				fast.AttentionCached16(z, qkv, kc, vc, 1, pos0, C, NH)
			} else {
				kc, vc := g.cache.full(l)
				fast.AttentionCached(z, qkv, kc, vc, 1, pos0, C, NH, false)
			}
		}
	}
	norms := func() {
		for l := 0; l < L; l++ {
			w := m.block(l)
			layernormForward(y, nil, nil, x[:C], w.Ln1W, w.Ln1B, 1, C)
			layernormForward(y, nil, nil, x[:C], w.Ln2W, w.Ln2B, 1, C)
		}
		w, b := m.finalNorm()
		layernormForward(y, nil, nil, x[:C], w, b, 1, C)
	}
	var weights []float32
	var weights16 []uint16
	if m.Precision == BF16 {
		weights16 = m.w16.data
	} else {
		weights = m.Params.Data
	}
	const probeCols = 1024
	probeX, probeY := make([]float32, probeCols), make([]float32, m.WeightBytes()/4/probeCols+1)
	var contexts []int
	for range steps {
		timed(stageProbe, func() { fast.StreamReadWeights(probeY, probeX, weights, weights16) })
		s, err := g.Step()
		if err != nil {
			return nil, err
		}
		contexts = append(contexts, g.cache.Len())
		times[StageStep] = append(times[StageStep], s.Time)
		times[StageForward] = append(times[StageForward], g.forwardTime)
		times[StageOwnWork] = append(times[StageOwnWork], s.Time-g.forwardTime)
		timed(StageBlocks, blocks)
		timed(StageAttn, attention)
		timed(StageNorm, norms)
		timed(StageOutput, func() { m.logits(y[:V], x[:C], 1) })
	}

	median := func(name string) float64 {
		d := slices.Clone(times[name])
		slices.Sort(d)
		return d[len(d)/2].Seconds()
	}
	size := 4
	if m.Precision == BF16 {
		size = 2
	}
	K := contexts[len(contexts)/2] // the median step's keys
	blockBytes := L * 12 * C * C * size
	attnBytes := 2 * L * K * C * size
	outBytes := V * C * size
	ds := &DecodeStages{Precision: m.Precision.String(), Context: context + 1, Steps: steps}
	add := func(name, part string, seconds float64, bytes int) {
		ds.Stages = append(ds.Stages, StepStage{Name: name, Seconds: seconds, Bytes: bytes, Part: part})
	}
	add(StageStep, "step", median(StageStep), blockBytes+attnBytes+outBytes)
	forward := median(StageForward)
	add(StageForward, "forward", forward, blockBytes+attnBytes+outBytes)
	parts := 0.0
	for _, s := range []struct {
		name  string
		bytes int
	}{{StageBlocks, blockBytes}, {StageAttn, attnBytes}, {StageNorm, 0}, {StageOutput, outBytes}} {
		t := median(s.name)
		parts += t
		add(s.name, "in forward", t, s.bytes)
	}
	add(StageRest, "in forward", forward-parts, 0)
	add(StageOwnWork, "in step", median(StageOwnWork), 0)
	// Each step's rate over the rate of the read just before it.
	probeBytes := m.WeightBytes() / 4 / probeCols * 4 * probeCols
	var fractions []float64
	for i, k := range contexts {
		stepBytes := blockBytes + 2*L*k*C*size + outBytes
		stepRate := float64(stepBytes) / times[StageStep][i].Seconds()
		fractions = append(fractions, stepRate/(float64(probeBytes)/times[stageProbe][i].Seconds()))
	}
	slices.Sort(fractions)
	n := len(fractions)
	ds.Paired = StreamPair{Bytes: probeBytes, Seconds: median(stageProbe),
		Fraction: fractions[n/2], FractionLow: fractions[n/4], FractionHigh: fractions[3*n/4]}
	return ds, nil
}
