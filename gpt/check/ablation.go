package check

import (
	"fmt"

	"github.com/gptnotes/gptnotes/gpt"
)

// HeadAblation checks a student's hook that zero-ablates one head: f(layer, head) returns a
// gpt.Hook which, run with the model, sets that head's output z to 0 at every position and
// leaves everything else alone (blocks.layer.attn.hook_z is (1, T, NH, HS): head h's slice at
// position t starts at (t·NH + h)·HS). The checker runs the lesson model with the student's
// hook for every head in turn, on a sequence of random tokens seen twice, and compares the
// logits with those of a run whose hook zeroes that head's z, to 1e-4. At the first head
// where they differ it names the mistake that gives the student's logits: nothing changed,
// the whole block zeroed, a neighbouring head or another block's, head h of every block,
// hook_z read in the pattern's (NH, T, HS) order, one position only, the mean for zero, or
// the queries zeroed instead of the output. Zeroing the head's values or its pattern gives
// z = 0 too, and passes.
//
//	v := check.HeadAblation(func(layer, head int) gpt.Hook { … })
func HeadAblation(f func(layer, head int) gpt.Hook) *Verdict {
	const op = "ablating one head"
	c, err := drawRepeated(op)
	if err != nil {
		return failed(op, err)
	}
	m, ids := c.m, c.ids
	L, NH := m.Config.Layers, m.Config.Heads
	v := &Verdict{Op: op, Case: c.String() + ", each head in turn", Tol: partTol, Ref: "the logits with that head's z zeroed"}
	largest, at := 0.0, "" // over every head
	for l := range L {
		for h := range NH {
			var hook gpt.Hook
			if msg := call(func() { hook = f(l, h) }); msg != "" {
				v.Problem = fmt.Sprintf("your function panicked for layer %d, head %d: %s", l, h, msg)
				return v
			}
			yours, err := logitsWith(m, ids, hook)
			if err != nil {
				v.Problem = fmt.Sprintf("your hook for layer %d, head %d does not run: %v", l, h, err)
				return v
			}
			model, err := logitsWith(m, ids, zeroHead(l, h, 0, -1))
			if err != nil {
				return failed(op, fmt.Errorf("check: %s: %w", op, err))
			}
			where := func(r, col int) string {
				return fmt.Sprintf("layer %d, head %d ablated: position %d, token %d", l, h, r, col)
			}
			v.compare(yours, model, where, "the logits, a row of V per position")
			if !v.OK {
				v.recognise(yours, model, ablationMistakes(m, ids, l, h))
				return v
			}
			if at == "" || v.MaxDiff > largest {
				largest, at = v.MaxDiff, v.Where
			}
		}
	}
	v.MaxDiff, v.Where = largest, at
	return v
}

// logitsWith runs m on ids with hooks and returns the logits as rows (T, V).
func logitsWith(m *gpt.Model, ids []int, hooks ...gpt.Hook) (grid, error) {
	out, err := m.RunWithHooks(ids, hooks...)
	if err != nil {
		return nil, err
	}
	g := make(grid, out.T)
	for t := range g {
		g[t] = append([]float32(nil), out.Row(0, t)...)
	}
	return g, nil
}

// zeroHead is a hook setting head h's z in block l to 0 at positions from … to (to < 0: the
// last).
func zeroHead(l, h, from, to int) gpt.Hook {
	return gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_z", l), Fn: func(a *gpt.Activation) {
		T, NH, HS := a.Shape[1], a.Shape[2], a.Shape[3]
		last := to
		if last < 0 {
			last = T - 1
		}
		for t := from; t <= last; t++ {
			clear(a.Data[(t*NH+h)*HS : (t*NH+h+1)*HS])
		}
	}}
}

// ablationMistakes are the wrong ablations of head h in block l, each run on ids.
func ablationMistakes(m *gpt.Model, ids []int, l, h int) []mistake {
	L, NH := m.Config.Layers, m.Config.Heads
	z := fmt.Sprintf("blocks.%d.attn.hook_z", l)
	type way struct {
		says  string
		hooks []gpt.Hook
	}
	ways := []way{
		{"nothing ablated: the logits are those of the run without a hook (does your hook change a.Data?).", nil},
		{"every head of the block zeroed: all of hook_z, not head h's slice alone.",
			[]gpt.Hook{{Name: z, Fn: func(a *gpt.Activation) { clear(a.Data) }}}},
		{"hook_z read in the pattern's order, (NH, T, HS): it is (1, T, NH, HS), position first, so head h's numbers at position t start at (t·NH + h)·HS.",
			[]gpt.Hook{{Name: z, Fn: func(a *gpt.Activation) {
				n := len(a.Data) / a.Shape[2]
				clear(a.Data[h*n : (h+1)*n])
			}}}},
		{"one position only: the head's z zeroed at the first position, where it must be zeroed at every position.",
			[]gpt.Hook{zeroHead(l, h, 0, 0)}},
		{"one position only: the head's z zeroed at the last position, where it must be zeroed at every position.",
			[]gpt.Hook{zeroHead(l, h, len(ids)-1, len(ids)-1)}},
		{"head h of every block (a pattern such as blocks.*.attn.hook_z), not of block l alone.",
			[]gpt.Hook{{Name: "blocks.*.attn.hook_z", Fn: zeroHead(l, h, 0, -1).Fn}}},
		{"mean-ablated: the head's z replaced by its mean over the positions; this check asks for zero-ablation, z set to 0.",
			[]gpt.Hook{{Name: z, Fn: func(a *gpt.Activation) {
				T, NH, HS := a.Shape[1], a.Shape[2], a.Shape[3]
				mean := make([]float32, HS)
				for t := range T {
					for i := range mean {
						mean[i] += a.Data[(t*NH+h)*HS+i] / float32(T)
					}
				}
				for t := range T {
					copy(a.Data[(t*NH+h)*HS:(t*NH+h+1)*HS], mean)
				}
			}}}},
		{"the queries zeroed (hook_q): the head then attends evenly to every earlier position and still writes its values' mean; zero its output z.",
			[]gpt.Hook{{Name: fmt.Sprintf("blocks.%d.attn.hook_q", l), Fn: zeroHead(l, h, 0, -1).Fn}}},
	}
	for _, d := range []int{1, NH - 1} {
		if o := (h + d) % NH; o != h {
			ways = append(ways, way{fmt.Sprintf("the wrong head: head %d of block %d zeroed, not head %d (an index off by one).", o, l, h),
				[]gpt.Hook{zeroHead(l, o, 0, -1)}})
		}
	}
	for o := range L {
		if o != l {
			ways = append(ways, way{fmt.Sprintf("the wrong block: head %d of block %d zeroed, not of block %d.", h, o, l),
				[]gpt.Hook{zeroHead(o, h, 0, -1)}})
		}
	}
	var ms []mistake
	for _, w := range ways {
		out, err := logitsWith(m, ids, w.hooks...)
		if err == nil {
			ms = append(ms, mistake{says: w.says, out: out})
		}
	}
	return ms
}
