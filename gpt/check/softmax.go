package check

import (
	"math"

	"fmt"
)

// MaskedSoftmax checks a student's causal softmax of one head: scores (T, T), the scaled
// dot products q·k/√HS of every query (row) with every key (column), future keys
// included; it returns the pattern (T, T): each row's weights over the keys up to and
// including its own position, summing to 1, and 0 after it. The inputs are
// blocks.l.attn.scores of a head of the shipped model, then the same scores plus 1000
// and minus 1000 (softmax does not change when a row is shifted, but exp(1000) overflows,
// and exp(−1000) underflows to 0 for every key of a row).
//
//	v := check.MaskedSoftmax(func(scores [][]float32) [][]float32 { … })
func MaskedSoftmax(f func(scores [][]float32) [][]float32) *Verdict {
	const op = "the masked softmax"
	p, err := draw(op)
	if err != nil {
		return failed(op, err)
	}
	var first *Verdict // the verdict of the first case, which a right op reports
	for _, shift := range []float32{0, 1000, -1000} {
		s := p.stepper()
		scores := runTo(s, p.block("attn.scores")).Output
		T := scores.Shape[2]
		for i := 0; i < T; i++ {
			for j := 0; j < T; j++ {
				scores.Set(scores.At(0, p.head, i, j)+shift, 0, p.head, i, j)
			}
		}
		in := headMatrix(scores, p.head)
		model := headMatrix(runTo(s, p.block("attn.hook_pattern")).Output, p.head)
		v := &Verdict{Op: op, Case: p.String(), Tol: 1e-5}
		switch shift {
		case 1000:
			v.Case += ", every score plus 1000 (a shift softmax ignores, but exp(1000) overflows)"
		case -1000:
			v.Case += ", every score minus 1000 (a shift softmax ignores, but exp(−1000) is 0 for every key)"
		}
		var yours grid
		if msg := call(func() { yours = f(clone(in)) }); msg != "" {
			v.Problem = "your function panicked: " + msg
			return v
		}
		where := func(r, c int) string { return fmt.Sprintf("head %d, query %d, key %d", p.head, r, c) }
		v.compare(yours, model, where, "T × T: queries × keys")
		if !v.OK {
			v.recognise(yours, model, softmaxMistakes(in))
			return v
		}
		if first == nil {
			first = v
		}
	}
	first.Case += " (and again with every score plus 1000, and minus 1000)"
	return first
}

// softmaxWay is one way, right or wrong, to turn a head's scores (T, T) into a pattern.
type softmaxWay struct {
	sees     func(i, j int) bool // whether query i may attend to key j
	fill     float64             // the score of a key it may not see: −Inf, or 0 by mistake
	noMax    bool                // exp(score) without first subtracting the row's largest
	byColumn bool                // normalising each key's column instead of each query's row
}

// causal is the right mask: a query sees itself and the past.
func causal(i, j int) bool { return j <= i }

var rightSoftmax = softmaxWay{sees: causal, fill: math.Inf(-1)}

// apply computes the pattern the way w says, in float64.
func (w softmaxWay) apply(scores grid) grid {
	T := len(scores)
	e := make([][]float64, T) // exp(score − shift), before normalising
	for i := range e {
		e[i] = make([]float64, T)
		row := make([]float64, T)
		mx := math.Inf(-1)
		for j := range row {
			row[j] = float64(scores[i][j])
			if !w.sees(i, j) {
				row[j] = w.fill
			}
			mx = math.Max(mx, row[j])
		}
		if w.noMax {
			mx = 0
		}
		for j, x := range row {
			e[i][j] = math.Exp(x - mx)
		}
	}
	out := make(grid, T)
	for i := range out {
		out[i] = make([]float32, T)
	}
	for a := 0; a < T; a++ { // a is the row, or with byColumn the column, normalised
		var sum float64
		for b := 0; b < T; b++ {
			if w.byColumn {
				sum += e[b][a]
			} else {
				sum += e[a][b]
			}
		}
		for b := 0; b < T; b++ {
			if w.byColumn {
				out[b][a] = float32(e[b][a] / sum)
			} else {
				out[a][b] = float32(e[a][b] / sum)
			}
		}
	}
	return out
}

// softmaxWrongWays are the mistakes a masked softmax is checked for, with what each says.
var softmaxWrongWays = []struct {
	says string
	way  softmaxWay
}{
	{"no max-subtraction: exp(score) overflows for a large score, giving +Inf and then NaN (and underflows to 0 for every key of a row far below 0, giving 0/0); subtract each row's largest score before exp (the softmax does not change).",
		softmaxWay{sees: causal, fill: math.Inf(-1), noMax: true}},
	{"the mask on the wrong triangle: each query sees the keys after it (key ≥ query) instead of those up to it (key ≤ query).",
		softmaxWay{sees: func(i, j int) bool { return j >= i }, fill: math.Inf(-1)}},
	{"no mask: each query sees every key, the future too.",
		softmaxWay{sees: func(i, j int) bool { return true }, fill: math.Inf(-1)}},
	{"the mask off by one: each query is kept from seeing itself (key < query instead of key ≤ query).",
		softmaxWay{sees: func(i, j int) bool { return j < i }, fill: math.Inf(-1)}},
	{"the mask off by one: each query sees one key of the future too (key ≤ query+1).",
		softmaxWay{sees: func(i, j int) bool { return j <= i+1 }, fill: math.Inf(-1)}},
	{"masked with 0 instead of −Inf: a future key still gets e⁰ = 1 before normalising, so it keeps some weight.",
		softmaxWay{sees: causal, fill: 0}},
	{"the softmax over the wrong axis: each key's column sums to 1 instead of each query's row.",
		softmaxWay{sees: causal, fill: math.Inf(-1), byColumn: true}},
}

// softmaxMistakes runs every wrong way on the scores.
func softmaxMistakes(scores grid) []mistake {
	var ms []mistake
	for _, w := range softmaxWrongWays {
		ms = append(ms, mistake{says: w.says, out: w.way.apply(scores)})
	}
	return ms
}
