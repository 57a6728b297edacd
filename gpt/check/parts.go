package check

import (
	"fmt"
	"slices"

	"github.com/gptnotes/gptnotes/gpt"
)

// The parts of a forward a notebook assembles, each checked against the model's named
// activation of the same input: Embed (hook_embed + hook_pos_embed), AttentionLayer
// (hook_attn_out from ln_1's output), MLP (hook_mlp_out from ln_2's output) and Block
// (hook_resid_post from hook_resid_pre). The student's function is handed the shipped model,
// whose Params it reads its weights from, and the block's number; a mistake is recognised by
// running it (reference.go). They are right to 1e-4, the tolerance of Forward: the stream
// grows to tens or hundreds, and the student's sums run in another order than the model's.

// partTol is how close a part's output must be to the model's.
const partTol = 1e-4

// Embed checks a student's embedding: ids (T) → the stream entering block 0, (T, C), the
// token's row of wte plus the position's row of wpe. It is compared with the model's
// hook_embed + hook_pos_embed.
//
//	v := check.Embed(func(m *gpt.Model, ids []int) [][]float32 { … })
func Embed(f func(m *gpt.Model, ids []int) [][]float32) *Verdict {
	const op = "the embedding"
	p, err := draw(op)
	if err != nil {
		return failed(op, err)
	}
	s := p.stepper()
	model := refAdd(rows(runTo(s, "hook_embed").Output), rows(runTo(s, "hook_pos_embed").Output))
	v := &Verdict{Op: op, Case: p.tokens(), Tol: partTol, Ref: "hook_embed + hook_pos_embed"}
	var yours grid
	if msg := call(func() { yours = f(p.m, append([]int(nil), p.ids...)) }); msg != "" {
		v.Problem = "your function panicked: " + msg
		return v
	}
	v.compare(yours, model, positionChannel, "one row of C per position")
	if !v.OK {
		v.recogniseWays(yours, model, embedWrongWays, func(w forwardWay) grid { return w.refEmbed(p.m, p.ids) })
	}
	return v
}

// AttentionLayer checks a student's attention layer of one block: x (T, C) is ln_1's output;
// it returns the layer's write into the stream (T, C): c_attn, the split into q, k and v and
// into heads, one head's attention each, the heads side by side, c_proj with its bias. It is
// compared with the model's blocks.l.hook_attn_out.
//
//	v := check.AttentionLayer(func(m *gpt.Model, l int, x [][]float32) [][]float32 { … })
func AttentionLayer(f func(m *gpt.Model, l int, x [][]float32) [][]float32) *Verdict {
	const op = "the attention layer"
	return layerCheck(op, "ln1.out", "hook_attn_out", f, attentionWrongWays,
		func(p *pick, w forwardWay, x grid) grid { return w.refAttention(p.m, p.layer, x) })
}

// MLP checks a student's MLP of one block: x (T, C) is ln_2's output; it returns the MLP's
// write into the stream (T, C): c_fc with its bias, GELU, c_proj with its bias. It is compared
// with the model's blocks.l.hook_mlp_out.
//
//	v := check.MLP(func(m *gpt.Model, l int, x [][]float32) [][]float32 { … })
func MLP(f func(m *gpt.Model, l int, x [][]float32) [][]float32) *Verdict {
	const op = "the MLP"
	return layerCheck(op, "ln2.out", "hook_mlp_out", f, mlpWrongWays,
		func(p *pick, w forwardWay, x grid) grid { return w.refMLP(p.m, p.layer, x) })
}

// Block checks a student's block: x (T, C) is the stream entering block l; it returns the
// stream leaving it, x + attn(ln_1(x)) and then that plus mlp(ln_2(·)). It is compared with
// the model's blocks.l.hook_resid_post. A wrong block is tried against the block's mistakes,
// then the attention layer's and the MLP's, since it calls them.
//
//	v := check.Block(func(m *gpt.Model, l int, x [][]float32) [][]float32 { … })
func Block(f func(m *gpt.Model, l int, x [][]float32) [][]float32) *Verdict {
	const op = "the block"
	ways := append(append(slices.Clone(blockWrongWays), attentionWrongWays...), mlpWrongWays...)
	return layerCheck(op, "hook_resid_pre", "hook_resid_post", f, ways,
		func(p *pick, w forwardWay, x grid) grid { return w.refBlock(p.m, p.layer, x) })
}

// layerCheck runs f on the case's block: its input is the activation named in, its output is
// compared with the one named out; ways are the mistakes and ref runs one.
func layerCheck(op, in, out string, f func(m *gpt.Model, l int, x [][]float32) [][]float32,
	ways []wrongWay, ref func(p *pick, w forwardWay, x grid) grid) *Verdict {
	p, err := draw(op)
	if err != nil {
		return failed(op, err)
	}
	s := p.stepper()
	x := rows(runTo(s, p.block(in)).Output)
	model := rows(runTo(s, p.block(out)).Output)
	v := &Verdict{Op: op, Case: fmt.Sprintf("block %d, from its %s over %s", p.layer, in, p.tokens()), Tol: partTol,
		Ref: fmt.Sprintf("blocks.%d.%s", p.layer, out)}
	var yours grid
	if msg := call(func() { yours = f(p.m, p.layer, clone(x)) }); msg != "" {
		v.Problem = "your function panicked: " + msg
		return v
	}
	v.compare(yours, model, positionChannel, "one row of C per position")
	if !v.OK {
		v.recogniseWays(yours, model, ways, func(w forwardWay) grid { return ref(p, w, clone(x)) })
	}
	return v
}

// positionChannel names an element of a (T, C) output.
func positionChannel(r, c int) string { return fmt.Sprintf("position %d, channel %d", r, c) }

// recogniseWays tries the mistakes one at a time, running each only when the ones before it
// did not match: a whole forward per mistake costs a moment.
func (v *Verdict) recogniseWays(yours, model grid, ways []wrongWay, run func(w forwardWay) grid) {
	if !sameShape(yours, model) {
		return
	}
	for _, w := range ways {
		var out grid
		if call(func() { out = run(w.way) }) != "" {
			continue // the mistake cannot run on this model (a table too small for it)
		}
		if v.recognise(yours, model, []mistake{{w.says, out}}); v.Mistake != "" {
			return
		}
	}
}
