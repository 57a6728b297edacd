package interp

import (
	"fmt"

	"github.com/gptnotes/gptnotes/gpt"
)

// The residual stream taken apart. Everything a block adds to the stream is added, never
// mixed, so the stream entering block l at a position is exactly the sum of
//
//	hook_embed + hook_pos_embed              the token's and the position's rows
//	+ for each block before l: each head's attn.hook_result, the c_proj bias
//	  (hook_attn_out − Σ heads), and hook_mlp_out
//
// (TransformerLens's decompose_resid with the heads split out: stack_head_results.) The
// logits read the final stream through ln_f, which subtracts the mean and divides by one
// scale per position (ln_final.hook_scale): applying that to each component — centring
// it and dividing by the position's scale, TransformerLens's apply_ln_to_stack — makes
// the components add up to ln_f's normalised input, so each one's dot product with an
// unembedding direction is its share of a logit (or of a logit difference).

// Components are the pieces of the residual stream at one position, each (C).
type Components struct {
	Labels  []string    // "embed", "pos_embed", "L0H3", "L0 attn bias", "L0 mlp", …
	Vectors [][]float32 // (components, C)
	Stage   int         // the stream entering block Stage (Layers: after the last block)
	Pos     int
	scale   float32 // ln_final.hook_scale at Pos
}

// Decompose runs m over ids and takes apart the residual stream entering block stage
// (0 … L; L is the final stream, before ln_f) at position pos (negative counts from the
// end).
func Decompose(m *gpt.Model, ids []int, stage, pos int) (*Components, error) {
	cfg := m.Config
	C, NH := cfg.Channels, cfg.Heads
	if stage < 0 || stage > cfg.Layers {
		return nil, fmt.Errorf("interp: decompose: stage %d, want 0 … %d", stage, cfg.Layers)
	}
	if pos < 0 {
		pos += len(ids)
	}
	if pos < 0 || pos >= len(ids) {
		return nil, fmt.Errorf("interp: decompose: position %d outside the %d tokens", pos, len(ids))
	}
	names := []string{"hook_embed", "hook_pos_embed", "blocks.*.attn.hook_result", "blocks.*.hook_attn_out", "ln_final.hook_scale"}
	if !m.Config.AttnOnly {
		names = append(names, "blocks.*.hook_mlp_out")
	}
	_, cache, err := m.RunWithCache(ids, names...)
	if err != nil {
		return nil, fmt.Errorf("interp: decompose: %w", err)
	}
	at := func(name string, width, off int) []float32 { // (width) at pos, from offset off
		d := cache.MustGet(name).Data
		return append([]float32(nil), d[pos*width+off:pos*width+off+C]...)
	}
	cs := &Components{Stage: stage, Pos: pos, scale: cache.MustGet("ln_final.hook_scale").Data[pos]}
	add := func(label string, v []float32) {
		cs.Labels = append(cs.Labels, label)
		cs.Vectors = append(cs.Vectors, v)
	}
	add("embed", at("hook_embed", C, 0))
	add("pos_embed", at("hook_pos_embed", C, 0))
	for l := 0; l < stage; l++ {
		bias := at(fmt.Sprintf("blocks.%d.hook_attn_out", l), C, 0)
		for h := 0; h < NH; h++ {
			r := at(fmt.Sprintf("blocks.%d.attn.hook_result", l), NH*C, h*C)
			for i := range bias {
				bias[i] -= r[i]
			}
			add(fmt.Sprintf("L%dH%d", l, h), r)
		}
		add(fmt.Sprintf("L%d attn bias", l), bias)
		if !m.Config.AttnOnly {
			add(fmt.Sprintf("L%d mlp", l), at(fmt.Sprintf("blocks.%d.hook_mlp_out", l), C, 0))
		}
	}
	return cs, nil
}

// Sum adds the components up: the residual stream itself.
func (cs *Components) Sum() []float32 {
	s := make([]float32, len(cs.Vectors[0]))
	for _, v := range cs.Vectors {
		for i, x := range v {
			s[i] += x
		}
	}
	return s
}

// FinalScaled returns each component centred and divided by ln_f's scale at the position
// (TransformerLens's apply_ln_to_stack): at stage L they sum to ln_final.hook_normalized.
func (cs *Components) FinalScaled() [][]float32 {
	out := make([][]float32, len(cs.Vectors))
	for k, v := range cs.Vectors {
		var mean float64
		for _, x := range v {
			mean += float64(x)
		}
		mean /= float64(len(v))
		out[k] = make([]float32, len(v))
		for i, x := range v {
			out[k][i] = float32((float64(x) - mean) / float64(cs.scale))
		}
	}
	return out
}

// Attribution is each component's share of the logit difference between tokens a and b:
// its FinalScaled vector · ln_f.weight ⊙ (wte[a] − wte[b]). The shares add up to the
// model's logit[a] − logit[b] less ln_f.bias · (wte[a] − wte[b]), returned as rest. An
// FP32 model's weights are read; b < 0 attributes logit[a] alone.
func (cs *Components) Attribution(m *gpt.Model, a, b int) (shares []float64, rest float64, err error) {
	if m.Params == nil {
		return nil, 0, fmt.Errorf("interp: attribution: a %v model has no fp32 weights", m.Precision)
	}
	C, V := m.Config.Channels, m.Config.VocabSize
	if a < 0 || a >= V || b >= V {
		return nil, 0, fmt.Errorf("interp: attribution: tokens %d and %d, want ids below %d", a, b, V)
	}
	dir := make([]float64, C)
	for i := range dir {
		d := float64(m.Params.Wte[a*C+i])
		if b >= 0 {
			d -= float64(m.Params.Wte[b*C+i])
		}
		rest += float64(m.Params.LnFB[i]) * d
		dir[i] = d * float64(m.Params.LnFW[i])
	}
	for _, v := range cs.FinalScaled() {
		s := 0.0
		for i, x := range v {
			s += float64(x) * dir[i]
		}
		shares = append(shares, s)
	}
	return shares, rest, nil
}

// Accumulated returns the residual stream at pos entering every block and after the last,
// (L+1, C): TransformerLens's accumulated_resid, read from the cache.
func Accumulated(m *gpt.Model, ids []int, pos int) ([][]float32, error) {
	if pos < 0 {
		pos += len(ids)
	}
	if pos < 0 || pos >= len(ids) {
		return nil, fmt.Errorf("interp: accumulated: position %d outside the %d tokens", pos, len(ids))
	}
	_, cache, err := m.RunWithCache(ids, "blocks.*.hook_resid_pre", "blocks.*.hook_resid_post")
	if err != nil {
		return nil, fmt.Errorf("interp: accumulated: %w", err)
	}
	rs, err := cache.ResidualStream() // (L+1, 1, T, C)
	if err != nil {
		return nil, fmt.Errorf("interp: accumulated: %w", err)
	}
	C, T := m.Config.Channels, len(ids)
	out := make([][]float32, rs.Shape[0])
	for s := range out {
		off := (s*T + pos) * C
		out[s] = rs.Data[off : off+C : off+C]
	}
	return out, nil
}
