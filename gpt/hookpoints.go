package gpt

import (
	"fmt"
	"strconv"
	"strings"
)

// Hook points: every activation of the forward pass has a name, TransformerLens's name for
// the same tensor of GPT-2, so that what a student learns here reads the same there. The
// names, in the order the forward computes them (l is the block, 0 … L-1):
//
//	hook_embed                    (B, T, C)      wte[id]
//	hook_pos_embed                (B, T, C)      wpe[t]
//	blocks.l.hook_resid_pre       (B, T, C)      the block's input: the residual stream
//	blocks.l.ln1.hook_scale       (B, T, 1)      √(var + 1e-5) of each position
//	blocks.l.ln1.hook_normalized  (B, T, C)      (x − mean) / scale, before ln_1's weight and bias
//	blocks.l.attn.hook_q          (B, T, NH, HS) queries, per head
//	blocks.l.attn.hook_k          (B, T, NH, HS) keys
//	blocks.l.attn.hook_v          (B, T, NH, HS) values
//	blocks.l.attn.hook_attn_scores (B, NH, T, T) q·k/√HS, masked positions −Inf, before the softmax
//	blocks.l.attn.hook_pattern    (B, NH, T, T)  the softmax of the scores: each row sums to 1
//	blocks.l.attn.hook_z          (B, T, NH, HS) each head's weighted sum of values
//	blocks.l.attn.hook_result     (B, T, NH, C)  each head's z through its rows of attn.c_proj
//	blocks.l.hook_attn_out        (B, T, C)      attn.c_proj's output: Σ over heads of result, + bias
//	blocks.l.hook_resid_mid       (B, T, C)      resid_pre + attn_out
//	blocks.l.ln2.hook_scale       (B, T, 1)
//	blocks.l.ln2.hook_normalized  (B, T, C)
//	blocks.l.mlp.hook_pre         (B, T, 4C)     mlp.c_fc's output, before GELU
//	blocks.l.mlp.hook_post        (B, T, 4C)     GELU of hook_pre
//	blocks.l.hook_mlp_out         (B, T, C)      mlp.c_proj's output
//	blocks.l.hook_resid_post      (B, T, C)      resid_mid + mlp_out: the next block's resid_pre
//	ln_final.hook_scale           (B, T, 1)
//	ln_final.hook_normalized      (B, T, C)
//	logits                        (B, T, V)      ln_f's output times wteᵀ (TransformerLens
//	                                             returns these rather than hooking them)
//
// As in TransformerLens, hook_scale and hook_normalized are taken before LayerNorm's affine
// weight and bias: ln_1's output is hook_normalized·weight + bias.

// HookPoint describes one named activation of a model of a given configuration.
type HookPoint struct {
	Name  string   // e.g. "blocks.3.attn.hook_pattern"
	Layer int      // the block, or -1 for the embeddings, ln_final and logits
	Dims  []string // the shape in letters, e.g. [B NH T T]
	What  string   // one sentence: what the op that makes it computes
}

// hookSite is one hook point of the table below, with its name relative to its block.
type hookSite struct {
	name string // "hook_embed", or "attn.hook_q" inside a block
	dims string
	what string
}

var (
	hooksBefore = []hookSite{
		{"hook_embed", "B T C", "looks up each token's row of wte"},
		{"hook_pos_embed", "B T C", "looks up each position's row of wpe; the residual stream starts as hook_embed + hook_pos_embed"},
	}
	hooksBlock = []hookSite{
		{"hook_resid_pre", "B T C", "is the residual stream entering the block"},
		{"ln1.hook_scale", "B T 1", "takes each position's standard deviation over its C channels, √(variance + 1e-5)"},
		{"ln1.hook_normalized", "B T C", "subtracts each position's mean and divides by its scale (ln_1's weight and bias are applied next)"},
		{"attn.hook_q", "B T NH HS", "multiplies ln_1's output by the query columns of attn.c_attn and splits the result into heads"},
		{"attn.hook_k", "B T NH HS", "multiplies ln_1's output by the key columns of attn.c_attn and splits the result into heads"},
		{"attn.hook_v", "B T NH HS", "multiplies ln_1's output by the value columns of attn.c_attn and splits the result into heads"},
		{"attn.hook_attn_scores", "B NH T T", "takes the dot product of every query with every key, divides by √HS, and sets the future (above the diagonal) to −Inf"},
		{"attn.hook_pattern", "B NH T T", "applies a softmax to each row of scores, so each query's weights over the keys sum to 1"},
		{"attn.hook_z", "B T NH HS", "sums the values weighted by the pattern, for each head and query"},
		{"attn.hook_result", "B T NH C", "multiplies each head's z by that head's rows of attn.c_proj"},
		{"hook_attn_out", "B T C", "adds up the heads' results and attn.c_proj's bias: the attention's write to the stream"},
		{"hook_resid_mid", "B T C", "adds the attention's output to the residual stream"},
		{"ln2.hook_scale", "B T 1", "takes each position's standard deviation over its C channels, √(variance + 1e-5)"},
		{"ln2.hook_normalized", "B T C", "subtracts each position's mean and divides by its scale (ln_2's weight and bias are applied next)"},
		{"mlp.hook_pre", "B T 4C", "multiplies ln_2's output by mlp.c_fc, widening each position to 4C"},
		{"mlp.hook_post", "B T 4C", "applies GELU (the tanh approximation) to each value"},
		{"hook_mlp_out", "B T C", "multiplies by mlp.c_proj, back to C channels: the MLP's write to the stream"},
		{"hook_resid_post", "B T C", "adds the MLP's output to the residual stream: the block's output"},
	}
	hooksAfter = []hookSite{
		{"ln_final.hook_scale", "B T 1", "takes each position's standard deviation over its C channels, √(variance + 1e-5)"},
		{"ln_final.hook_normalized", "B T C", "subtracts each position's mean and divides by its scale (ln_f's weight and bias are applied next)"},
		{"logits", "B T V", "multiplies ln_f's output by the transposed token table wte: one score per vocabulary entry"},
	}
)

func (s hookSite) point(layer int) HookPoint {
	name := s.name
	if layer >= 0 {
		name = "blocks." + strconv.Itoa(layer) + "." + s.name
	}
	return HookPoint{Name: name, Layer: layer, Dims: strings.Fields(s.dims), What: s.what}
}

// HookPoints returns every hook point of a model of cfg, in the order the forward pass
// computes them (cfg.Layers·18 + 5 names).
func HookPoints(cfg Config) []HookPoint {
	var hp []HookPoint
	for _, s := range hooksBefore {
		hp = append(hp, s.point(-1))
	}
	for l := 0; l < cfg.Layers; l++ {
		for _, s := range hooksBlock {
			hp = append(hp, s.point(l))
		}
	}
	for _, s := range hooksAfter {
		hp = append(hp, s.point(-1))
	}
	return hp
}

// HookNames returns the names of HookPoints(cfg), in forward order.
func HookNames(cfg Config) []string {
	hp := HookPoints(cfg)
	names := make([]string, len(hp))
	for i, p := range hp {
		names[i] = p.Name
	}
	return names
}

// LookupHook returns the hook point called name in a model of cfg, or an error naming the
// problem: "gpt: no hook point "blocks.12.attn.hook_q": blocks are 0 … 11".
func LookupHook(cfg Config, name string) (HookPoint, error) {
	for _, s := range hooksBefore {
		if s.name == name {
			return s.point(-1), nil
		}
	}
	for _, s := range hooksAfter {
		if s.name == name {
			return s.point(-1), nil
		}
	}
	rest, ok := strings.CutPrefix(name, "blocks.")
	if !ok {
		return HookPoint{}, fmt.Errorf("gpt: no hook point %q (names are hook_embed, hook_pos_embed, blocks.<l>.…, ln_final.…, logits; see HookNames)", name)
	}
	num, site, ok := strings.Cut(rest, ".")
	l, err := strconv.Atoi(num)
	if !ok || err != nil {
		return HookPoint{}, fmt.Errorf("gpt: no hook point %q: want blocks.<layer>.<name>, e.g. blocks.0.attn.hook_pattern", name)
	}
	if l < 0 || l >= cfg.Layers {
		return HookPoint{}, fmt.Errorf("gpt: no hook point %q: blocks are 0 … %d", name, cfg.Layers-1)
	}
	for _, s := range hooksBlock {
		if s.name == site {
			return s.point(l), nil
		}
	}
	return HookPoint{}, fmt.Errorf("gpt: no hook point %q: a block has no %q (see HookNames)", name, site)
}

// Shape returns the hook point's shape for B sequences of T positions in a model of cfg.
func (p HookPoint) Shape(cfg Config, B, T int) []int {
	shape := make([]int, len(p.Dims))
	for i, d := range p.Dims {
		switch d {
		case "B":
			shape[i] = B
		case "T":
			shape[i] = T
		case "C":
			shape[i] = cfg.Channels
		case "4C":
			shape[i] = 4 * cfg.Channels
		case "NH":
			shape[i] = cfg.Heads
		case "HS":
			shape[i] = cfg.Channels / cfg.Heads
		case "V":
			shape[i] = cfg.VocabSize
		case "1":
			shape[i] = 1
		default:
			panic("gpt: hook point " + p.Name + ": unknown dimension " + d)
		}
	}
	return shape
}

// MatchHook reports whether name matches pattern, where a "*" in the pattern stands for
// one whole dot-separated part and "**" for all the parts left: "blocks.*.attn.hook_pattern"
// matches every layer's pattern; "blocks.3.*" matches block 3's hook_resid_pre … hook_resid_post
// but not its attn.hook_q (two parts); "blocks.3.**" matches every name of block 3.
func MatchHook(pattern, name string) bool {
	pp, np := strings.Split(pattern, "."), strings.Split(name, ".")
	for i, p := range pp {
		if p == "**" {
			return i < len(np)
		}
		if i >= len(np) || (p != "*" && p != np[i]) {
			return false
		}
	}
	return len(pp) == len(np)
}
