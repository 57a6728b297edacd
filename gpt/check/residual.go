package check

import "fmt"

// Residual checks a student's residual add of one position: x (C) is the residual stream
// entering a block, y (C) the attention's output at the same position; it returns the
// stream after the attention, x + y. The inputs are blocks.l.hook_resid_pre and
// blocks.l.hook_attn_out of the shipped model, every position, and the output is compared
// with blocks.l.hook_resid_mid.
//
//	v := check.Residual(func(x, y []float32) []float32 { … })
func Residual(f func(x, y []float32) []float32) *Verdict {
	const op = "the residual add"
	p, err := draw(op)
	if err != nil {
		return failed(op, err)
	}
	s := p.stepper()
	mid := runTo(s, p.block("hook_resid_mid"))
	x, y, model := rows(mid.Inputs[0]), rows(mid.Inputs[1]), rows(mid.Output)
	v := &Verdict{Op: op, Case: fmt.Sprintf("resid_pre + attn_out of block %d, over %s", p.layer, p.tokens()), Tol: 1e-5}
	yours := make(grid, len(x))
	if msg := eachRow(len(x), "position", func(t int) { yours[t] = f(append([]float32(nil), x[t]...), append([]float32(nil), y[t]...)) }); msg != "" {
		v.Problem = msg
		return v
	}
	where := func(r, c int) string { return fmt.Sprintf("position %d, channel %d", r, c) }
	v.compare(yours, model, where, "one row of C per position")
	if !v.OK {
		minus := make(grid, len(x))
		for t := range x {
			minus[t] = make([]float32, len(x[t]))
			for i := range x[t] {
				minus[t][i] = x[t][i] - y[t][i]
			}
		}
		v.recognise(yours, model, []mistake{
			{"the stream returned unchanged: the attention's output y is not added to x.", x},
			{"the attention's output returned alone: the stream x is dropped, so nothing flows past the block.", y},
			{"x − y: the attention's output is subtracted instead of added.", minus},
		})
	}
	return v
}
