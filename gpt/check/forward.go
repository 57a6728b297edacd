package check

import (
	"fmt"
	"math"
	"slices"

	"github.com/gptnotes/gptnotes/gpt"
)

// Forward checks a student's whole forward: ids (T) → logits (T, V), the embedding, every
// block, ln_f and the tied unembedding. The logits must equal the model's ForwardAll to
// 1e-4, and their mean cross-entropy over the next tokens the model's Forward loss to 1e-4.
// A wrong forward is tried against every mistake the parts' checks know (Embed,
// AttentionLayer, MLP, Block) and the forward's own: the unembedding transposed, ln_f left
// out, the blocks' outputs thrown away.
//
//	v := check.Forward(func(m *gpt.Model, ids []int) [][]float32 { … })
func Forward(f func(m *gpt.Model, ids []int) [][]float32) *Verdict {
	const op = "the forward"
	p, err := draw(op)
	if err != nil {
		return failed(op, err)
	}
	T := len(p.ids)
	all, err := p.m.ForwardAll([][]int{p.ids})
	if err != nil {
		return failed(op, err)
	}
	model := splitLogits(slices.Clone(all.Logits), T, all.V)
	withTargets, err := p.m.Forward([][]int{p.ids[:T-1]}, [][]int{p.ids[1:]})
	if err != nil {
		return failed(op, err)
	}
	v := &Verdict{Op: op, Case: p.tokens(), Tol: 1e-4, Ref: "ForwardAll's"}
	var yours grid
	if msg := call(func() { yours = f(p.m, append([]int(nil), p.ids...)) }); msg != "" {
		v.Problem = "your function panicked: " + msg
		return v
	}
	where := func(r, c int) string {
		return fmt.Sprintf("position %d, token %d %q", r, c, p.tok.Decode([]int{c}))
	}
	v.compare(yours, model, where, "V logits per position")
	if !v.OK {
		var ways []wrongWay
		for _, part := range [][]wrongWay{forwardWrongWays, embedWrongWays, attentionWrongWays, mlpWrongWays, blockWrongWays} {
			ways = append(ways, part...)
		}
		v.recogniseWays(yours, model, ways, func(w forwardWay) grid { return w.refForward(p.m, p.ids) })
		return v
	}
	loss := meanLoss(yours[:T-1], p.ids[1:])
	v.Case += fmt.Sprintf("; the mean loss over its %d next tokens: yours %.5f, Forward's %.5f", T-1, loss, withTargets.Loss)
	if math.Abs(loss-float64(withTargets.Loss)) > 1e-4 {
		v.OK, v.Problem = false, "the logits match, but not the mean loss."
	}
	return v
}

// splitLogits cuts a forward's logits (1, T, V) into T rows.
func splitLogits(logits []float32, T, V int) grid {
	g := make(grid, T)
	for t := range g {
		g[t] = logits[t*V : (t+1)*V]
	}
	return g
}

// meanLoss is the mean cross-entropy of the rows of logits against their targets, in float64.
func meanLoss(logits grid, targets []int) float64 {
	var sum float64
	for t, row := range logits {
		sum += gpt.LogSumExp(row) - float64(row[targets[t]])
	}
	return sum / float64(len(logits))
}
