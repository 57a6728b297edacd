package interp

import (
	"fmt"

	"github.com/gptnotes/gptnotes/gpt"
)

// Weight processing, as TransformerLens applies it by default when it loads GPT-2
// (from_pretrained: fold_ln, center_writing_weights, center_unembed), here an explicit
// step that returns a new model and leaves the old one as it was.
//
// Folding LayerNorm. Each LayerNorm's output, normalized·g + β, feeds one matrix W and
// bias b (Conv1D, y = x·W + b): ln_1 feeds attn.c_attn, ln_2 mlp.c_fc, ln_f the
// unembedding. (n·g + β)·W + b = n·(diag(g)·W) + (β·W + b), so W becomes diag(g)·W, b
// becomes β·W + b and the LayerNorm keeps only its normalisation (weight 1, bias 0). Each
// column of the new W is then centred over its C inputs, which changes nothing because
// a normalised row sums to 0. The logits do not change.
//
// Centring writing weights. Every block reads the residual stream through a LayerNorm,
// which subtracts each position's mean; so the mean of what is written is never read.
// wte's and wpe's rows, attn.c_proj's and mlp.c_proj's rows and biases are centred over
// their C outputs. The logits do not change.
//
// Centring the unembedding. Subtracting from each row of W_U (C, V) its mean over the
// vocabulary, and from b_U its mean, lowers every logit of a position by the same amount:
// the probabilities do not change, the logits change by a constant per position.
//
// GPT-2's token table is also its unembedding, and after processing it cannot be both:
// centring its rows for the embedding would change the logits, and ln_f folds into it
// only as an unembedding. So the processed model unties them, as TransformerLens's
// HookedTransformer does: Model's wte is the embedding, and WU and BU are the
// unembedding. Processed.RunWithHooks computes the logits from them (at the "logits"
// hook point, from ln_final.hook_normalized); Model on its own has a meaningless
// unembedding (its own RunWithCache logits, LogitLens and DirectLogitAttribution read
// wte), and its ln_f is the bare normalisation.
//
// Which cache matches which: an ActivationCache of the unprocessed model matches
// TransformerLens's from_pretrained_no_processing; one of Processed.Model matches its
// from_pretrained for every activation inside the blocks (hook_scale, hook_normalized, q,
// k, v, the patterns, z and MLP activations are the same in both, and the residual stream
// differs by each position's mean, which the processed stream no longer has).

// ProcessOptions chooses the steps.
type ProcessOptions struct {
	FoldLN        bool // fold ln_1 and ln_2 into c_attn and c_fc
	CenterWriting bool // centre wte, wpe and both c_proj's outputs
	CenterUnembed bool // centre W_U and b_U over the vocabulary
}

// DefaultProcessing is TransformerLens's default: all three.
var DefaultProcessing = ProcessOptions{FoldLN: true, CenterWriting: true, CenterUnembed: true}

// Processed is a model after weight processing, with its own unembedding.
type Processed struct {
	Model   *gpt.Model // its blocks and embeddings; ln_f is weight 1, bias 0
	WU      []float32  // (C, V) the unembedding: diag(ln_f.weight)·wteᵀ, processed
	BU      []float32  // (V) ln_f.bias·wteᵀ, processed
	Options ProcessOptions
}

// Process returns m processed by o: a new model; m is unchanged. ln_f is always folded
// into the unembedding (see above).
func Process(m *gpt.Model, o ProcessOptions) (*Processed, error) {
	if m.Params == nil {
		return nil, fmt.Errorf("interp: process: a %v model has no fp32 weights; use an FP32 model", m.Precision)
	}
	cfg := m.Config
	C, V := cfg.Channels, cfg.VocabSize
	pm, err := gpt.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("interp: process: %w", err)
	}
	p := pm.Params
	copy(p.Data, m.Params.Data)

	// The unembedding from the original table, before anything centres it.
	wu, bu := make([]float32, C*V), make([]float32, V)
	for v := 0; v < V; v++ {
		var b float64
		for c := 0; c < C; c++ {
			e := float64(p.Wte[v*C+c])
			wu[c*V+v] = float32(e * float64(p.LnFW[c]))
			b += e * float64(p.LnFB[c])
		}
		bu[v] = float32(b)
	}
	centreColumns(wu, C, V) // reads a normalised row: exact
	setLayerNorm(p.LnFW, p.LnFB)

	for l := range cfg.Layers {
		b := &p.H[l]
		if o.FoldLN {
			foldLayerNorm(b.Ln1W, b.Ln1B, b.CAttnW, b.CAttnB, C, 3*C)
		}
		if o.CenterWriting {
			centreRows(b.AttnCProjW, C, C)
			centreRows(b.AttnCProjB, 1, C)
		}
		if cfg.AttnOnly {
			continue // no ln_2, no MLP
		}
		if o.FoldLN {
			foldLayerNorm(b.Ln2W, b.Ln2B, b.CFcW, b.CFcB, C, 4*C)
		}
		if o.CenterWriting {
			centreRows(b.MlpCProjW, 4*C, C)
			centreRows(b.MlpCProjB, 1, C)
		}
	}
	if o.CenterWriting {
		centreRows(p.Wte, V, C)
		centreRows(p.Wpe, cfg.BlockSize, C)
	}
	if o.CenterUnembed {
		centreRows(wu, C, V)
		centreRows(bu, 1, V)
	}
	return &Processed{Model: pm, WU: wu, BU: bu, Options: o}, nil
}

// foldLayerNorm folds a LayerNorm's weight g and bias β into the (in, out) matrix w and
// bias b it feeds, centres w's columns, and leaves the LayerNorm as weight 1, bias 0.
func foldLayerNorm(g, beta, w, b []float32, in, out int) {
	for j := 0; j < out; j++ {
		var s float64
		for i := 0; i < in; i++ {
			s += float64(beta[i]) * float64(w[i*out+j])
		}
		b[j] += float32(s)
	}
	for i := 0; i < in; i++ {
		for j := 0; j < out; j++ {
			w[i*out+j] *= g[i]
		}
	}
	centreColumns(w, in, out)
	setLayerNorm(g, beta)
}

func setLayerNorm(w, b []float32) {
	for i := range w {
		w[i], b[i] = 1, 0
	}
}

// centreRows subtracts from each row of the (r, c) matrix x its mean.
func centreRows(x []float32, r, c int) {
	for i := 0; i < r; i++ {
		row := x[i*c : (i+1)*c]
		var s float64
		for _, v := range row {
			s += float64(v)
		}
		mean := float32(s / float64(c))
		for j := range row {
			row[j] -= mean
		}
	}
}

// centreColumns subtracts from each column of the (r, c) matrix x its mean.
func centreColumns(x []float32, r, c int) {
	mean := make([]float64, c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			mean[j] += float64(x[i*c+j])
		}
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			x[i*c+j] -= float32(mean[j] / float64(r))
		}
	}
}

// RunWithHooks runs the processed model over ids with hooks, returning every position's
// logits (1, T, V) from its own unembedding: ln_final.hook_normalized · WU + BU, written
// at the "logits" hook point before any of hooks sees it.
func (p *Processed) RunWithHooks(ids []int, hooks ...gpt.Hook) (*gpt.Output, error) {
	C, V := p.Model.Config.Channels, p.Model.Config.VocabSize
	var normalized []float32
	own := []gpt.Hook{
		{Name: "ln_final.hook_normalized", Fn: func(a *gpt.Activation) { normalized = append(normalized[:0], a.Data...) }},
		{Name: "logits", Fn: func(a *gpt.Activation) {
			for n := 0; n < len(normalized)/C; n++ {
				x := normalized[n*C : (n+1)*C]
				out := a.Data[n*V : (n+1)*V]
				copy(out, p.BU)
				for c, xc := range x {
					row := p.WU[c*V : (c+1)*V]
					for v := range out {
						out[v] += xc * row[v]
					}
				}
			}
		}},
	}
	return p.Model.RunWithHooks(ids, append(own, hooks...)...)
}
