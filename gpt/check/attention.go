package check

import (
	"fmt"
	"math"
)

// Attention checks a student's causal self-attention of one head: q, k and v (T, HS) are
// the head's queries, keys and values at T positions; it returns z (T, HS), each
// position's values weighted by the softmax of its scaled scores q·k/√HS over the keys up
// to and including its own. The inputs are blocks.l.attn.hook_q, hook_k and hook_v of a
// head of the shipped model, then the same with q scaled so the largest score is 800
// (exp(800) overflows); z is compared with the model's blocks.l.attn.hook_z.
//
//	v := check.Attention(func(q, k, v [][]float32) [][]float32 { … })
func Attention(f func(q, k, v [][]float32) [][]float32) *Verdict {
	const op = "attention of one head"
	p, err := draw(op)
	if err != nil {
		return failed(op, err)
	}
	var first *Verdict // the verdict of the first case, which a right op reports
	for _, large := range []bool{false, true} {
		s := p.stepper()
		qa := runTo(s, p.block("attn.hook_q")).Output
		ka := runTo(s, p.block("attn.hook_k")).Output
		va := runTo(s, p.block("attn.hook_v")).Output
		verdict := &Verdict{Op: op, Case: p.String(), Tol: 1e-5}
		if large {
			// Scale this head's queries so that its largest score is 800: exp(800) is +Inf
			// in float32 and float64 alike, and the model's softmax, which subtracts each
			// row's largest score first, does not overflow.
			factor := float32(800 / largestScore(headRows(qa, p.head), headRows(ka, p.head)))
			T, NH, HS := qa.Shape[1], qa.Shape[2], qa.Shape[3]
			for t := 0; t < T; t++ {
				for d := 0; d < HS; d++ {
					qa.Data[(t*NH+p.head)*HS+d] *= factor
				}
			}
			verdict.Case += ", q scaled so the largest score is 800 (exp(800) overflows)"
			verdict.Tol = 1e-3 // float32 scores of size 800 carry errors of about 1e-4
		}
		q, k, v := headRows(qa, p.head), headRows(ka, p.head), headRows(va, p.head)
		model := headRows(runTo(s, p.block("attn.hook_z")).Output, p.head)
		var yours grid
		if msg := call(func() { yours = f(clone(q), clone(k), clone(v)) }); msg != "" {
			verdict.Problem = "your function panicked: " + msg
			return verdict
		}
		where := func(r, c int) string { return fmt.Sprintf("head %d, query %d, dim %d", p.head, r, c) }
		verdict.compare(yours, model, where, "T × HS: positions × the head's dimensions")
		if !verdict.OK {
			verdict.recognise(yours, model, attentionMistakes(q, k, v))
			return verdict
		}
		if first == nil {
			first = verdict
		}
	}
	first.Case += " (and again with q scaled so the largest score is 800)"
	return first
}

// largestScore is the largest q_i·k_j/√HS with j ≤ i (of the largest |q_i·k_j|/√HS if
// none is positive, when the scaling below flips q's sign).
func largestScore(q, k grid) float64 {
	scale := 1 / math.Sqrt(float64(len(q[0])))
	mx, mxAbs := math.Inf(-1), 0.0
	for i := range q {
		for j := 0; j <= i; j++ {
			s := dot(q[i], k[j]) * scale
			mx, mxAbs = math.Max(mx, s), math.Max(mxAbs, math.Abs(s))
		}
	}
	if mx <= 0 {
		return -mxAbs
	}
	return mx
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// attend is attention of one head done with the given scale and softmax, in float64:
// z = softmax(q·kᵀ·scale)·v.
func attend(q, k, v grid, scale float64, w softmaxWay) grid {
	T := len(q)
	scores := make(grid, T)
	for i := range scores {
		scores[i] = make([]float32, T)
		for j := range scores[i] {
			scores[i][j] = float32(dot(q[i], k[j]) * scale)
		}
	}
	p := w.apply(scores)
	z := make(grid, T)
	for i := range z {
		z[i] = make([]float32, len(v[0]))
		for d := range z[i] {
			var acc float64
			for j := 0; j < T; j++ {
				acc += float64(p[i][j]) * float64(v[j][d])
			}
			z[i][d] = float32(acc)
		}
	}
	return z
}

// attentionMistakes runs the wrong scales and every wrong softmax on q, k, v.
func attentionMistakes(q, k, v grid) []mistake {
	HS := float64(len(q[0]))
	ms := []mistake{
		{"no 1/√HS scale: the scores q·k are not divided by √HS, so the softmax is too sharp.", attend(q, k, v, 1, rightSoftmax)},
		{"dividing by HS instead of √HS: the scores are too small, so the softmax is too flat.", attend(q, k, v, 1/HS, rightSoftmax)},
	}
	for _, w := range softmaxWrongWays {
		ms = append(ms, mistake{says: w.says, out: attend(q, k, v, 1/math.Sqrt(HS), w.way)})
	}
	return ms
}
