package check

import (
	"fmt"
	"math"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
)

// Head checks a tensor a student computed for one head against the model's own, as a cell
// has it from a cache or a Stepper: yours is (T, T) for an activation (1, NH, T, T) — the
// scores before the mask (blocks.l.attn.scores, a Stepper's), after it
// (blocks.l.attn.hook_attn_scores, −Inf above the diagonal) or the pattern
// (blocks.l.attn.hook_pattern) — and (T, HS) for one of (1, T, NH, HS): blocks.l.attn.hook_q,
// hook_k, hook_v or hook_z. It is right to 1e-5 (−Inf where the model's is −Inf, or for the
// masked scores any value whose exp is as 0, such as −1e9); otherwise
// the verdict says where it first differs, or the shape it got wrong.
//
//	check.Head(myPattern, cache.MustGet("blocks.3.attn.hook_pattern"), 0)
//
// Unlike the other checks it compares numbers of one input, the cell's own: it tells a
// student their computation matches the model on this prompt, and the op's check (Attention,
// MaskedSoftmax) whether the function is right on inputs it did not see.
func Head(yours [][]float32, a *gpt.Activation, head int) *Verdict {
	if a == nil {
		return failed("one head's tensor", fmt.Errorf("check: head: no activation to compare with"))
	}
	op := fmt.Sprintf("head %d of %s", head, a.Name)
	if len(a.Shape) != 4 || a.Shape[0] != 1 {
		return failed(op, fmt.Errorf("check: head: %s has shape %v, want (1, NH, T, T) or (1, T, NH, HS)", a.Name, a.Shape))
	}
	var model grid
	var dims string
	var where func(r, c int) string
	switch {
	case strings.HasSuffix(a.Name, "attn.scores") || strings.HasSuffix(a.Name, "hook_attn_scores") || strings.HasSuffix(a.Name, "hook_pattern"):
		if head < 0 || head >= a.Shape[1] {
			return failed(op, fmt.Errorf("check: head: head %d of %s: heads are 0 … %d", head, a.Name, a.Shape[1]-1))
		}
		model, dims = headMatrix(a, head), "T × T: a row per query, a column per key"
		where = func(r, c int) string { return fmt.Sprintf("query %d, key %d", r, c) }
	case strings.HasSuffix(a.Name, "hook_q") || strings.HasSuffix(a.Name, "hook_k") ||
		strings.HasSuffix(a.Name, "hook_v") || strings.HasSuffix(a.Name, "hook_z"):
		if head < 0 || head >= a.Shape[2] {
			return failed(op, fmt.Errorf("check: head: head %d of %s: heads are 0 … %d", head, a.Name, a.Shape[2]-1))
		}
		model, dims = headRows(a, head), "T × HS: a row per position"
		where = func(r, c int) string { return fmt.Sprintf("position %d, channel %d", r, c) }
	default:
		return failed(op, fmt.Errorf("check: head: %s is not one head's attention tensor (scores, pattern, q, k, v or z)", a.Name))
	}
	v := &Verdict{Op: op, Case: fmt.Sprintf("this cell's %d positions", len(model)), Tol: 1e-5}
	if strings.HasSuffix(a.Name, "hook_attn_scores") {
		yours = masked(yours, model)
		v.Case += " (a masked score whose exp is 0 after the row's largest is subtracted, −1e9 say, counts as −Inf)"
	}
	v.compare(yours, model, where, dims)
	return v
}

// masked returns yours with −Inf wherever the model's masked scores are −Inf and yours is a
// finite score the softmax turns into the same weight, 0: exp(yours − the row's largest) is
// 0 in float32. Any such value masks a key as well as −Inf does.
func masked(yours, model grid) grid {
	if !sameShape(yours, model) {
		return yours
	}
	out := clone(yours)
	for r, row := range model {
		mx := math.Inf(-1)
		for _, m := range row {
			if finite(m) {
				mx = math.Max(mx, float64(m))
			}
		}
		for c, m := range row {
			if math.IsInf(float64(m), -1) && finite(out[r][c]) && float32(math.Exp(float64(out[r][c])-mx)) == 0 {
				out[r][c] = float32(math.Inf(-1))
			}
		}
	}
	return out
}
