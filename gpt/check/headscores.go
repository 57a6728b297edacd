package check

import (
	"fmt"

	"github.com/gptnotes/gptnotes/interp"
)

// The head scores of notebook 3c, as a student computes them from one head's pattern: how
// much of each query's attention goes where a previous-token head, or an induction head, puts
// it, averaged over the queries that have such a target (interp.Score with PerQuery). The
// checker calls the student's function on the pattern of every head of the lesson model
// and compares each score with interp's to 1e-5; the mistakes it names are the ones the
// lesson's students make: the diagonal off by one, the pattern's axes swapped, the scores
// averaged over the keys as well as the queries, and queries without a target (query 0, the
// first copy) counted in.

// scoreTol is how close a student's score must be to interp's: both sum at most a few dozen
// float32 weights.
const scoreTol = 1e-5

// PreviousTokenScores checks a student's previous-token score of one head: pattern (T, T) is
// the head's attention, row t a query and column s a key (0 above the diagonal); it returns
// the mean over the queries t = 1 … T−1 of pattern[t][t−1], the attention on the token just
// before. It is compared with interp.Score(pattern, interp.PreviousToken, PerQuery) for every
// head.
//
//	v := check.PreviousTokenScores(func(pattern [][]float32) float64 { … })
func PreviousTokenScores(f func(pattern [][]float32) float64) *Verdict {
	const op = "the previous-token score"
	return scoreCheck(op, interp.PreviousToken, func(p [][]float32, _ int) float64 { return f(p) }, previousTokenMistakes)
}

// InductionScores checks a student's induction score of one head: pattern (2n+1, 2n+1) is the
// head's attention on [BOS, r, r], n random tokens seen twice; it returns the mean over the
// second copy's queries t = n+1 … 2n of pattern[t][t−n+1], the attention on the token that
// followed the query's token the first time. It is compared with interp.Score(pattern,
// interp.Induction, PerQuery) for every head (the tokens of r are all different, so the two
// agree).
//
//	v := check.InductionScores(func(pattern [][]float32, n int) float64 { … })
func InductionScores(f func(pattern [][]float32, n int) float64) *Verdict {
	const op = "the induction score"
	return scoreCheck(op, interp.Induction, f, inductionMistakes)
}

// scoreMistake is a wrong score of one head, computed from its pattern and n.
type scoreMistake struct {
	says  string
	score func(p grid, n int) float64
}

// scoreCheck scores every head of the lesson model with the student's f and with interp's
// detector d, compares, and names the mistake whose scores are the student's.
func scoreCheck(op string, d interp.Detector, f func(p [][]float32, n int) float64, mistakes []scoreMistake) *Verdict {
	c, err := drawRepeated(op)
	if err != nil {
		return failed(op, err)
	}
	L, NH, T := c.m.Config.Layers, c.m.Config.Heads, len(c.ids)
	_, cache, err := c.m.RunWithCache(c.ids, "blocks.*.attn.hook_pattern")
	if err != nil {
		return failed(op, fmt.Errorf("check: %s: %w", op, err))
	}
	det := d.Pattern(c.ids)
	v := &Verdict{Op: op, Case: c.String(), Tol: scoreTol, Ref: "interp's"}
	model, yours := make(grid, L), make(grid, L)
	wrong := make([]grid, len(mistakes))
	for i := range wrong {
		wrong[i] = make(grid, L)
	}
	for l := range L {
		a := cache.MustGet(fmt.Sprintf("blocks.%d.attn.hook_pattern", l)) // (1, NH, T, T)
		model[l], yours[l] = make([]float32, NH), make([]float32, NH)
		for i := range wrong {
			wrong[i][l] = make([]float32, NH)
		}
		for h := range NH {
			p := headMatrix(a, h)
			model[l][h] = float32(interp.Score(a.Data[h*T*T:(h+1)*T*T], det, interp.ScoreOptions{PerQuery: true}))
			var s float64
			if msg := call(func() { s = f(clone(p), c.n) }); msg != "" {
				v.Problem = fmt.Sprintf("your function panicked on layer %d, head %d: %s", l, h, msg)
				return v
			}
			yours[l][h] = float32(s)
			for i, m := range mistakes {
				wrong[i][l][h] = float32(m.score(p, c.n))
			}
		}
	}
	v.compare(yours, model, func(r, c int) string { return fmt.Sprintf("layer %d, head %d", r, c) }, "a score per head")
	if !v.OK {
		ms := make([]mistake, len(mistakes))
		for i, m := range mistakes {
			ms[i] = mistake{says: m.says, out: wrong[i]}
		}
		v.recognise(yours, model, ms)
	}
	return v
}

// meanOver is the mean of pattern[t][t−back] over t = from … len(p)−1, divided by div (0:
// by the number of terms); terms whose key is outside the row are skipped.
func meanOver(p grid, from, back int, div float64) float64 {
	var sum float64
	terms := 0
	for t := from; t < len(p); t++ {
		if s := t - back; s >= 0 && s < len(p[t]) {
			sum += float64(p[t][s])
			terms++
		}
	}
	if div == 0 {
		div = float64(terms)
	}
	if div == 0 {
		return 0
	}
	return sum / div
}

// axesSwapped is every score of a student who reads the pattern as [key][query]: the entries
// above the diagonal, which the causal mask left 0.
const axesSwapped = "the pattern's axes swapped: pattern[t][s] is query t's attention on key s, and a key after its query (above the diagonal) is masked to 0, so every score is 0 — as a function that does nothing yet gives."

var previousTokenMistakes = []scoreMistake{
	{"the diagonal off by one: pattern[t][t] is each query's attention on its own token (a current-token score), not on the one before.",
		func(p grid, _ int) float64 { return meanOver(p, 1, 0, 0) }},
	{"the diagonal off by one the other way: pattern[t][t−2] is two tokens back.",
		func(p grid, _ int) float64 { return meanOver(p, 2, 2, 0) }},
	{"averaged over the wrong axis: the sum of pattern[t][t−1] divided by every entry of the rows, (T−1)·T, where each query's attention on its target is one number and the mean is over the T−1 queries.",
		func(p grid, _ int) float64 { return meanOver(p, 1, 1, float64((len(p)-1)*len(p))) }},
	{"query 0 counted: it has no token before it, so the mean is over the T−1 queries from 1, not over all T (dividing by T is TransformerLens's ratio without exclusions).",
		func(p grid, _ int) float64 { return meanOver(p, 1, 1, float64(len(p))) }},
	{axesSwapped, func(grid, int) float64 { return 0 }},
}

var inductionMistakes = []scoreMistake{
	{"the diagonal off by one: pattern[t][t−n] is the attention on the earlier copy of the query's own token (a duplicate-token score), not on the token that followed it.",
		func(p grid, n int) float64 { return meanOver(p, n+1, n, 0) }},
	{"the diagonal off by one the other way: pattern[t][t−n+2] is two tokens after the earlier copy.",
		func(p grid, n int) float64 { return meanOver(p, n+1, n-2, 0) }},
	{"averaged over the wrong axis: the sum of the second copy's pattern[t][t−n+1] divided by every entry of its rows, n·T, where each query's attention on its target is one number and the mean is over the n queries.",
		func(p grid, n int) float64 { return meanOver(p, n+1, n-1, float64(n*len(p))) }},
	{"the first copy included: the mean is over all 2n+1 queries, but BOS and the first copy have no earlier copy to look back at, so even a perfect induction head would score under ½; average over the second copy's n queries, t = n+1 … 2n.",
		func(p grid, n int) float64 { return meanOver(p, n+1, n-1, float64(len(p))) }},
	{"the first copy included: the whole diagonal pattern[t][t−n+1] from t = n−1 (numpy's diagonal(−(n−1))) takes in the first copy's last two queries, n−1 and n, which have no earlier copy to look back at; start at t = n+1.",
		func(p grid, n int) float64 { return meanOver(p, n-1, n-1, 0) }},
	{axesSwapped, func(grid, int) float64 { return 0 }},
}
