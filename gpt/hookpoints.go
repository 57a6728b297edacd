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
//	blocks.l.hook_mlp_in          (B, T, C)      a copy of resid_mid that ln_2 reads; only with
//	                                             Config.HookMLPIn (TransformerLens's use_hook_mlp_in)
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

// hookSite is one row of the table below: a tensor the forward computes, with its name
// relative to its block. The forward (block.go, run.go) hands each one to run.at on the
// line that computes it; everything else about it is here: its shape, what it is, whether
// a BF16 model rounds it, and how the Stepper shows the op that makes it. A new hook point
// is one row here and one r.at line in the forward.
type hookSite struct {
	name string // "hook_embed", or "attn.hook_q" inside a block
	dims string // its shape in letters, "B T NH HS"
	what string // one sentence: what the op that makes it computes
	kind siteKind

	// bf16: a BF16 model rounds this tensor to bfloat16 when the forward hands it to
	// run.at: it is an op's output where PyTorch's bfloat16 ops round theirs (bf16.go).
	bf16 bool

	// The Stepper's op for this tensor: a label of a few words ("softmax"), what the op
	// reads (tensors by their names, relative to the block, and "w:" weights by their
	// checkpoint names, h.l. for the block's), and, where the op's sentence is not the
	// tensor's, the op's own. No label: the Stepper makes no op of it.
	label, reads, opWhat string
}

// siteKind says who sees a tensor of the table.
type siteKind int

const (
	hookPoint siteKind = iota // a hook point: hooks, the cache and the Stepper see it
	stepOnly                  // only the Stepper: a tensor TransformerLens does not hook (ln1.out, attn.scores)
	internal                  // nobody: an op's output the steps read in another shape (c_attn's q|k|v)
	optional                  // a hook point only when the Config turns it on (TransformerLens's use_hook_mlp_in)
)

var (
	hooksBefore = []hookSite{
		{"hook_embed", "B T C", "looks up each token's row of wte", hookPoint, false,
			"wte[token]", "tokens w:wte.weight", ""},
		{"hook_pos_embed", "B T C", "looks up each position's row of wpe; the residual stream starts as hook_embed + hook_pos_embed", hookPoint, false,
			"wpe[position]", "positions w:wpe.weight", ""},
	}
	hooksBlock = []hookSite{
		// Block 0's hook_resid_pre is the sum of the embeddings; a later block's is the
		// previous block's hook_resid_post, the same tensor, and no op of the Stepper.
		{"hook_resid_pre", "B T C", "is the residual stream entering the block", hookPoint, true,
			"embed + pos_embed", "hook_embed hook_pos_embed", "adds the token and position embeddings: the residual stream entering block 0"},
		{"ln1.hook_scale", "B T 1", "takes each position's standard deviation over its C channels, √(variance + 1e-5)", hookPoint, false,
			"h.l.ln_1: scale", "hook_resid_pre", ""},
		{"ln1.hook_normalized", "B T C", "subtracts each position's mean and divides by its scale (ln_1's weight and bias are applied next)", hookPoint, false,
			"h.l.ln_1: normalize", "hook_resid_pre ln1.hook_scale", ""},
		{"ln1.out", "B T C", "multiplies each channel of the normalized row by h.l.ln_1's weight and adds its bias: h.l.ln_1's output", stepOnly, true,
			"h.l.ln_1: weight, bias", "ln1.hook_normalized w:h.l.ln_1.weight w:h.l.ln_1.bias", ""},
		{"attn.qkv", "B T 3C", "multiplies ln_1's output by attn.c_attn: q|k|v side by side", internal, true,
			"", "", ""},
		{"attn.hook_q", "B T NH HS", "multiplies ln_1's output by the query columns of attn.c_attn and splits the result into heads", hookPoint, true,
			"q = ln_1 · c_attn[:, q]", "ln1.out w:h.l.attn.c_attn.weight[q] w:h.l.attn.c_attn.bias[q]", ""},
		{"attn.hook_k", "B T NH HS", "multiplies ln_1's output by the key columns of attn.c_attn and splits the result into heads", hookPoint, true,
			"k = ln_1 · c_attn[:, k]", "ln1.out w:h.l.attn.c_attn.weight[k] w:h.l.attn.c_attn.bias[k]", ""},
		{"attn.hook_v", "B T NH HS", "multiplies ln_1's output by the value columns of attn.c_attn and splits the result into heads", hookPoint, true,
			"v = ln_1 · c_attn[:, v]", "ln1.out w:h.l.attn.c_attn.weight[v] w:h.l.attn.c_attn.bias[v]", ""},
		{"attn.scores", "B NH T T", "takes the dot product of every query with every key and divides by √HS (the future is masked next)", stepOnly, true,
			"q·kᵀ / √HS", "attn.hook_q attn.hook_k", ""},
		{"attn.hook_attn_scores", "B NH T T", "takes the dot product of every query with every key, divides by √HS, and sets the future (above the diagonal) to −Inf", hookPoint, false,
			"causal mask", "attn.scores", "sets the score of every key after its query (above the diagonal) to −Inf, so the softmax gives it weight 0"},
		{"attn.hook_pattern", "B NH T T", "applies a softmax to each row of scores, so each query's weights over the keys sum to 1", hookPoint, true,
			"softmax", "attn.hook_attn_scores", ""},
		{"attn.hook_z", "B T NH HS", "sums the values weighted by the pattern, for each head and query", hookPoint, true,
			"z = pattern · v", "attn.hook_pattern attn.hook_v", ""},
		{"attn.hook_result", "B T NH C", "multiplies each head's z by that head's rows of attn.c_proj", hookPoint, false,
			"z_h · c_proj[h]", "attn.hook_z w:h.l.attn.c_proj.weight", ""},
		{"hook_attn_out", "B T C", "adds up the heads' results and attn.c_proj's bias: the attention's write to the stream", hookPoint, true,
			"Σ_h result + bias", "attn.hook_result w:h.l.attn.c_proj.bias", ""},
		{"hook_resid_mid", "B T C", "adds the attention's output to the residual stream", hookPoint, true,
			"resid_pre + attn_out", "hook_resid_pre hook_attn_out", ""},
		{"hook_mlp_in", "B T C", "copies hook_resid_mid as the MLP's input, so that a change to it reaches ln_2 and not the stream (Config.HookMLPIn)", optional, false,
			"mlp_in = resid_mid", "hook_resid_mid", ""},
		{"ln2.hook_scale", "B T 1", "takes each position's standard deviation over its C channels, √(variance + 1e-5)", hookPoint, false,
			"h.l.ln_2: scale", "hook_mlp_in", ""},
		{"ln2.hook_normalized", "B T C", "subtracts each position's mean and divides by its scale (ln_2's weight and bias are applied next)", hookPoint, false,
			"h.l.ln_2: normalize", "hook_mlp_in ln2.hook_scale", ""},
		{"ln2.out", "B T C", "multiplies each channel of the normalized row by h.l.ln_2's weight and adds its bias: h.l.ln_2's output", stepOnly, true,
			"h.l.ln_2: weight, bias", "ln2.hook_normalized w:h.l.ln_2.weight w:h.l.ln_2.bias", ""},
		{"mlp.hook_pre", "B T 4C", "multiplies ln_2's output by mlp.c_fc, widening each position to 4C", hookPoint, true,
			"ln_2 · c_fc", "ln2.out w:h.l.mlp.c_fc.weight w:h.l.mlp.c_fc.bias", ""},
		{"mlp.hook_post", "B T 4C", "applies GELU (the tanh approximation) to each value", hookPoint, true,
			"GELU", "mlp.hook_pre", ""},
		{"hook_mlp_out", "B T C", "multiplies by mlp.c_proj, back to C channels: the MLP's write to the stream", hookPoint, true,
			"post · c_proj", "mlp.hook_post w:h.l.mlp.c_proj.weight w:h.l.mlp.c_proj.bias", ""},
		{"hook_resid_post", "B T C", "adds the MLP's output to the residual stream: the block's output", hookPoint, true,
			"resid_mid + mlp_out", "hook_resid_mid hook_mlp_out", ""},
	}
	hooksAfter = []hookSite{
		{"ln_final.hook_scale", "B T 1", "takes each position's standard deviation over its C channels, √(variance + 1e-5)", hookPoint, false,
			"ln_f: scale", "stream", ""},
		{"ln_final.hook_normalized", "B T C", "subtracts each position's mean and divides by its scale (ln_f's weight and bias are applied next)", hookPoint, false,
			"ln_f: normalize", "stream ln_final.hook_scale", ""},
		{"ln_final.out", "B T C", "multiplies each channel of the normalized row by ln_f's weight and adds its bias: ln_f's output", stepOnly, true,
			"ln_f: weight, bias", "ln_final.hook_normalized w:ln_f.weight w:ln_f.bias", ""},
		{"logits", "B T V", "multiplies ln_f's output by the transposed token table wte: one score per vocabulary entry", hookPoint, true,
			"ln_f · wteᵀ", "ln_final.out w:wte.weight", ""},
	}

	// sites finds a row of the tables by its name (relative to the block).
	sites = func() map[string]*hookSite {
		m := map[string]*hookSite{}
		for _, t := range [][]hookSite{hooksBefore, hooksBlock, hooksAfter} {
			for i := range t {
				m[t[i].name] = &t[i]
			}
		}
		return m
	}()
)

// mlpRows are the rows of hooksBlock from the first residual add to the MLP's output,
// which an attention-only block (Config.AttnOnly) does not have; its hook_resid_post is
// residPostAttnOnly.
var mlpRows = map[string]bool{
	"hook_resid_mid": true, "hook_mlp_in": true, "ln2.hook_scale": true, "ln2.hook_normalized": true,
	"ln2.out": true, "mlp.hook_pre": true, "mlp.hook_post": true, "hook_mlp_out": true,
}

// residPostAttnOnly is hook_resid_post's row in an attention-only block: its one residual add.
var residPostAttnOnly = hookSite{"hook_resid_post", "B T C", "adds the attention's output to the residual stream: the block's output (an attention-only block has no MLP)", hookPoint, true,
	"resid_pre + attn_out", "hook_resid_pre hook_attn_out", ""}

// blockRows returns the rows of one block of a model of cfg, in forward order: hooksBlock,
// or for an attention-only model hooksBlock without mlpRows.
func blockRows(cfg Config) []hookSite {
	if !cfg.AttnOnly {
		return hooksBlock
	}
	var rows []hookSite
	for _, s := range hooksBlock {
		switch {
		case mlpRows[s.name]:
		case s.name == "hook_resid_post":
			rows = append(rows, residPostAttnOnly)
		default:
			rows = append(rows, s)
		}
	}
	return rows
}

// isHook reports whether the row is a hook point of a model of cfg.
func (s *hookSite) isHook(cfg Config) bool {
	if cfg.AttnOnly && mlpRows[s.name] {
		return false
	}
	return s.kind == hookPoint || s.kind == optional && cfg.HookMLPIn
}

func (s hookSite) point(layer int) HookPoint {
	name := s.name
	if layer >= 0 {
		name = "blocks." + strconv.Itoa(layer) + "." + s.name
	}
	return HookPoint{Name: name, Layer: layer, Dims: strings.Fields(s.dims), What: s.what}
}

// HookPoints returns every hook point of a model of cfg, in the order the forward pass
// computes them (cfg.Layers·18 + 5 names; one more a block with cfg.HookMLPIn; 12 a block
// of an attention-only model).
func HookPoints(cfg Config) []HookPoint {
	var hp []HookPoint
	for _, s := range hooksBefore {
		if s.isHook(cfg) {
			hp = append(hp, s.point(-1))
		}
	}
	for l := 0; l < cfg.Layers; l++ {
		for _, s := range blockRows(cfg) {
			if s.isHook(cfg) {
				hp = append(hp, s.point(l))
			}
		}
	}
	for _, s := range hooksAfter {
		if s.isHook(cfg) {
			hp = append(hp, s.point(-1))
		}
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
	for _, s := range append(hooksBefore[:len(hooksBefore):len(hooksBefore)], hooksAfter...) {
		if s.name == name && s.isHook(cfg) {
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
	for _, s := range blockRows(cfg) {
		if s.name == site && s.isHook(cfg) {
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
		case "3C":
			shape[i] = 3 * cfg.Channels
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
