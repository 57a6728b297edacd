package gpt

import (
	"fmt"
	"math"

	"github.com/gptnotes/gptnotes/gpt/internal/pages"
)

// Model is a GPT-2: its configuration, its parameters, the precision it computes in, and
// the buffers its forward passes reuse. A Model is not safe for concurrent use; models
// made with WithPrecision or Share have their own buffers.
type Model struct {
	Config    Config
	Params    *Params   // the fp32 parameters; nil in a BF16 model, which holds bf16 weights only
	Precision Precision // FP32 or BF16

	w16 *params16 // BF16: the weights at 2 bytes per parameter (nil in FP32)

	acts   *activations // buffers of the last Forward, reused when B, T and mode match
	cached *activations // buffers of ForwardCached
	tally  Tally        // the positions forwarded and the caches made (tally.go)
	spare  KVCache      // an empty cache holding the slab a closed Generator gave back, for the next (kvcache.go)

	Grads *Params   // gradients of the loss after Backward, laid out like Params (backward.go)
	gacts *gradActs // the backward pass's buffers
}

// New makes a model of cfg with zeroed parameters; call Init or load a checkpoint.
func New(cfg Config) (*Model, error) {
	p, err := NewParams(cfg)
	if err != nil {
		return nil, err
	}
	return &Model{Config: cfg, Params: p, Precision: FP32}, nil
}

// Init fills the parameters with GPT-2's initialisation (see Params.Init).
func (m *Model) Init(seed uint64, scaled bool) {
	if m.Params == nil {
		panic("gpt: init: a BF16 model has no fp32 parameters; initialise the fp32 model, then call WithPrecision(BF16)")
	}
	m.Params.Init(seed, scaled)
}

// Share returns a model with the same parameters and its own buffers, for running
// forward passes on another goroutine.
func (m *Model) Share() *Model {
	return &Model{Config: m.Config, Params: m.Params, Precision: m.Precision, w16: m.w16}
}

// Output is what a forward pass returns.
type Output struct {
	Logits  []float32 // (B, T, V) with targets or ForwardAll; (B, 1, V), the last position, without
	B, T, V int       // the shape of Logits
	Loss    float32   // mean cross-entropy over the targets; NaN without targets
}

// Row returns the logits (V) of row b, position t of Logits.
func (o *Output) Row(b, t int) []float32 {
	i := (b*o.T + t) * o.V
	return o.Logits[i : i+o.V : i+o.V]
}

// String describes the output in one line, its shape and its loss: "logits (1, 92, 50257),
// loss 10.883", or "logits (1, 1, 50257), no loss (no targets)" for a forward without
// targets, whose Loss is NaN.
func (o *Output) String() string {
	loss := "no loss (no targets)"
	if !math.IsNaN(float64(o.Loss)) {
		loss = fmt.Sprintf("loss %.3f", o.Loss)
	}
	return fmt.Sprintf("logits (%d, %d, %d), %s", o.B, o.T, o.V, loss)
}

// activations are the forward pass's intermediate tensors, llm.c's ActivationTensors. With
// targets (training) every layer keeps its own copy of each, because the backward pass
// reads them; the leading L below is then the number of layers. Without targets the blocks
// share one set (L is 1) and att, probs and losses are not allocated.
//
//	encoded    (B, T, C)        wte[id] + wpe[t]
//	ln1        (L, B, T, C)     ln_1 output; ln1Mean, ln1Rstd (L, B, T)
//	qkv        (L, B, T, 3C)    attn.c_attn output, q|k|v
//	atty       (L, B, T, C)     attention output, heads side by side
//	att        (L, B, NH, T, T) attention probabilities (zero above the diagonal); training only
//	attproj    (L, B, T, C)     attn.c_proj output
//	residual2  (L, B, T, C)     x + attproj
//	ln2        (L, B, T, C)     ln_2 output; ln2Mean, ln2Rstd (L, B, T)
//	fch        (L, B, T, 4C)    mlp.c_fc output
//	fchGelu    (L, B, T, 4C)    GELU of fch
//	fcproj     (L, B, T, C)     mlp.c_proj output
//	residual3  (L, B, T, C)     residual2 + fcproj, the block's output
//	lnf        (B, T, C)        ln_f output; lnfMean, lnfRstd (B, T)
//	probs      (B, T, V)        softmax of the logits; training only
//	losses     (B, T)           -log probs[target]; training only
//
// The logits themselves are in Output.Logits. Block l's input is encoded for l = 0 and
// residual3 of layer l-1 otherwise.
type activations struct {
	B, T, N int  // N = B·T rows
	keep    bool // one set per layer (training) or one shared set (inference)

	ids, targets []int // (B, T) the last Forward's tokens and targets, for Backward; training only

	encoded                         []float32
	ln1, ln1Mean, ln1Rstd           []float32
	qkv, atty, att, attproj         []float32
	residual2                       []float32
	ln2, ln2Mean, ln2Rstd           []float32
	fch, fchGelu, fcproj, residual3 []float32
	lnf, lnfMean, lnfRstd           []float32
	probs, losses                   []float32
}

// layerActs are the views of one layer's activations.
type layerActs struct {
	ln1, ln1Mean, ln1Rstd           []float32
	qkv, atty, att, attproj         []float32
	residual2                       []float32
	ln2, ln2Mean, ln2Rstd           []float32
	fch, fchGelu, fcproj, residual3 []float32
}

func newActivations(cfg Config, B, T int, keep bool) *activations {
	N, C, V, NH := B*T, cfg.Channels, cfg.VocabSize, cfg.Heads
	L := 1
	if keep {
		L = cfg.Layers
	}
	a := &activations{B: B, T: T, N: N, keep: keep}
	a.encoded = make([]float32, N*C)
	a.ln1, a.ln2 = make([]float32, L*N*C), make([]float32, L*N*C)
	a.qkv = make([]float32, L*N*3*C)
	a.atty, a.attproj = make([]float32, L*N*C), make([]float32, L*N*C)
	a.residual2, a.residual3 = make([]float32, L*N*C), make([]float32, L*N*C)
	a.fch, a.fchGelu = make([]float32, L*N*4*C), make([]float32, L*N*4*C)
	a.fcproj = make([]float32, L*N*C)
	a.lnf = make([]float32, N*C)
	if keep {
		a.ln1Mean, a.ln1Rstd = make([]float32, L*N), make([]float32, L*N)
		a.ln2Mean, a.ln2Rstd = make([]float32, L*N), make([]float32, L*N)
		a.lnfMean, a.lnfRstd = make([]float32, N), make([]float32, N)
		a.att = make([]float32, L*B*NH*T*T)
		a.probs, a.losses = make([]float32, N*V), make([]float32, N)
	}
	return a
}

// layer returns the views of layer l (of the shared set when not keeping).
func (a *activations) layer(l int, C, NH int) layerActs {
	if !a.keep {
		l = 0
	}
	N := a.N
	v := func(s []float32, n int) []float32 {
		if s == nil {
			return nil
		}
		return s[l*n : (l+1)*n : (l+1)*n]
	}
	return layerActs{
		ln1: v(a.ln1, N*C), ln1Mean: v(a.ln1Mean, N), ln1Rstd: v(a.ln1Rstd, N),
		qkv: v(a.qkv, N*3*C), atty: v(a.atty, N*C), att: v(a.att, a.B*NH*a.T*a.T),
		attproj: v(a.attproj, N*C), residual2: v(a.residual2, N*C),
		ln2: v(a.ln2, N*C), ln2Mean: v(a.ln2Mean, N), ln2Rstd: v(a.ln2Rstd, N),
		fch: v(a.fch, N*4*C), fchGelu: v(a.fchGelu, N*4*C),
		fcproj: v(a.fcproj, N*C), residual3: v(a.residual3, N*C),
	}
}

// Forward runs the model over a batch of B sequences of T token ids each (equal lengths).
//
// With targets (B, T) — the next token of each position, or IgnoreTarget — it returns the
// logits of every position (B, T, V) and the mean cross-entropy, and keeps the activations
// the backward pass needs. Without targets (nil) it returns the logits of the last
// position of each sequence only, (B, 1, V), and Loss is NaN.
//
// A sequence longer than the block size is an error ending, e.g., "Cannot forward
// sequence of length 1100, block size is only 1024"; so is a token id outside the
// vocabulary.
func (m *Model) Forward(batch [][]int, targets [][]int) (*Output, error) {
	return m.forward("forward", batch, targets, targets == nil)
}

// ForwardAll returns the logits of every position (B, T, V) without computing a loss or
// keeping activations: the inference forward that PyTorch's model(idx) does.
func (m *Model) ForwardAll(batch [][]int) (*Output, error) {
	return m.forward("forward", batch, nil, false)
}

func (m *Model) forward(op string, batch, targets [][]int, lastOnly bool) (*Output, error) {
	cfg := m.Config
	B, T, err := m.checkBatch(op, batch, targets)
	if err != nil {
		return nil, err
	}
	C, V, N := cfg.Channels, cfg.VocabSize, B*T
	m.tally.Positions += N
	keep := targets != nil
	a := m.acts
	if a == nil || a.B != B || a.T != T || a.keep != keep {
		a = newActivations(cfg, B, T, keep)
		m.acts = a
	}
	ids := make([]int, 0, N)
	for _, row := range batch {
		ids = append(ids, row...)
	}
	r := m.newRun(a, B, T)
	x := r.forward(ids)

	out := &Output{B: B, T: T, V: V, Loss: float32(math.NaN())}
	if lastOnly {
		// Only the last position of each row: ln_f and the output layer on B rows.
		last := make([]float32, B*C)
		for b := 0; b < B; b++ {
			copy(last[b*C:(b+1)*C], x[(b*T+T-1)*C:(b*T+T)*C])
		}
		out.T = 1
		out.Logits = make([]float32, B*V)
		r.final(out.Logits, last, nil, nil, last, B)
		return out, nil
	}
	out.Logits = make([]float32, N*V)
	pages.Huge(out.Logits) // 196 MiB for 1,024 positions of Small: hundreds of page faults, not 50,000
	r.final(out.Logits, a.lnf, a.lnfMean, a.lnfRstd, x, N)
	if targets != nil {
		tg := make([]int, 0, N)
		for _, row := range targets {
			tg = append(tg, row...)
		}
		out.Loss = crossentropyForward(a.probs, a.losses, out.Logits, tg, N, V)
		a.ids, a.targets = ids, tg
	}
	return out, nil
}

// checkBatch returns B and T, or an error naming what is wrong with the batch or targets.
func (m *Model) checkBatch(op string, batch, targets [][]int) (int, int, error) {
	cfg := m.Config
	if len(batch) == 0 || len(batch[0]) == 0 {
		return 0, 0, fmt.Errorf("gpt: %s: empty batch", op)
	}
	B, T := len(batch), len(batch[0])
	if T > cfg.BlockSize {
		return 0, 0, fmt.Errorf("gpt: %s: Cannot forward sequence of length %d, block size is only %d", op, T, cfg.BlockSize)
	}
	for b, row := range batch {
		if len(row) != T {
			return 0, 0, fmt.Errorf("gpt: %s: row %d has %d tokens, row 0 has %d: the rows of a batch must have equal length", op, b, len(row), T)
		}
		for t, id := range row {
			if id < 0 || id >= cfg.VocabSize {
				return 0, 0, fmt.Errorf("gpt: %s: token id %d at row %d, position %d is outside the vocabulary [0, %d)", op, id, b, t, cfg.VocabSize)
			}
		}
	}
	if targets != nil {
		if len(targets) != B {
			return 0, 0, fmt.Errorf("gpt: %s: %d rows of targets for %d rows of tokens", op, len(targets), B)
		}
		for b, row := range targets {
			if len(row) != T {
				return 0, 0, fmt.Errorf("gpt: %s: targets row %d has %d entries, want %d", op, b, len(row), T)
			}
			for t, id := range row {
				if id != IgnoreTarget && (id < 0 || id >= cfg.VocabSize) {
					return 0, 0, fmt.Errorf("gpt: %s: target id %d at row %d, position %d is outside the vocabulary [0, %d)", op, id, b, t, cfg.VocabSize)
				}
			}
		}
	}
	return B, T, nil
}
