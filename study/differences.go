package study

import (
	"fmt"
	"math"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/study/reference"
	"github.com/gptnotes/gptnotes/viz"
)

// The rows of "Same weights, different bugs": cached against uncached, bf16 against fp32, a
// batch against one sequence, temperature 0, and the same seed twice.

func rowCachedVsUncached(r *Run) (Result, error) {
	m, name, err := r.trained()
	if err != nil {
		return Result{}, err
	}
	c, err := gpt.CompareCaching(m, r.promptFor(m), 200)
	if err != nil {
		return Result{}, err
	}
	if err := r.save(viz.CachingDifference(c), "caching"); err != nil {
		return Result{}, err
	}
	same := "same tokens"
	if c.FirstDiverge > 0 {
		same = fmt.Sprintf("tokens differ from step %d", c.FirstDiverge)
	}
	return Result{Ours: fmt.Sprintf("%s; logits differ by up to %.2g, %.2g with the mean shift removed; top-2 gap moved ≤ %.2g; narrowest gap %.3g",
		same, c.MaxDiff, c.MaxDiffShifted, c.MaxGapChange, c.NarrowestGap),
		Numbers: []Number{{"first divergence", float64(c.FirstDiverge), "step"}, {"max |Δlogit|", c.MaxDiff, ""},
			{"max |Δlogit| shift removed", c.MaxDiffShifted, ""}, {"top-2 gap moved", c.MaxGapChange, ""},
			{"narrowest gap", c.NarrowestGap, ""}},
		Model: name, Figures: []string{"caching"}}, nil
}

func rowBF16(r *Run) (Result, error) {
	m, name, err := r.trained()
	if err != nil {
		return Result{}, err
	}
	c, err := gpt.ComparePrecision(m, m.WithPrecision(gpt.BF16), r.promptFor(m), 40)
	if err != nil {
		return Result{}, err
	}
	if err := r.save(viz.PrecisionDivergence(c, r.decoder), "precision"); err != nil {
		return Result{}, err
	}
	split := "never split in 40 tokens"
	same := 0 // tokens that agree position by position after the split
	if c.Split > 0 {
		after := c.Steps[c.Split:]
		for _, s := range after {
			if s.FP32 == s.BF16 {
				same++
			}
		}
		split = fmt.Sprintf("split at token %d; after it %d of %d tokens agree position by position", c.Split, same, len(after))
		if r.decoder != nil {
			n := min(c.Split+3, len(c.FP32Tokens), len(c.BF16Tokens))
			split += fmt.Sprintf(" (fp32 %q vs bf16 %q)", r.decoder.Decode(c.FP32Tokens[:n]), r.decoder.Decode(c.BF16Tokens[:n]))
		}
	}
	return Result{Ours: fmt.Sprintf("%s; max |Δlogit| before the split %.3g", split, c.MaxDiff),
		Numbers: []Number{{"split", float64(c.Split), "token"}, {"agreeing after the split", float64(same), "tokens"},
			{"max |Δlogit| before the split", c.MaxDiff, ""}},
		Model: name, Figures: []string{"precision"}}, nil
}

func rowBatch(r *Run) (Result, error) {
	m, name, err := r.trained()
	if err != nil {
		return Result{}, err
	}
	c, err := gpt.CompareBatch(m, r.promptFor(m), 8)
	if err != nil {
		return Result{}, err
	}
	kept := "tokens kept"
	if !c.TokensEqual {
		kept = "tokens changed"
	}
	inv, err := gpt.CompareBatchInvariance(m, r.promptFor(m), 8)
	if err != nil {
		return Result{}, err
	}
	return Result{Ours: fmt.Sprintf("%s, logits moved up to %.2g vs the single run (our products sum each row in one order from 6 rows on; a split-K output layer whose plan follows the batch: %.2g)",
		kept, c.MaxDiff, inv.SplitK),
		Numbers: []Number{{"tokens kept", b2f(c.TokensEqual), ""}, {"max |Δlogit|", c.MaxDiff, ""}, {"split-K max |Δlogit|", inv.SplitK, ""}},
		Model:   name}, nil
}

func rowTemperature0(r *Run) (Result, error) {
	logits := make([]float32, 50257)
	for i, id := range tokens(len(logits), 1000) {
		logits[i] = float32(id) / 100
	}
	// nanoGPT: logits / temperature with temperature 0.
	var zero float32
	inf := 0
	for _, l := range logits {
		if math.IsInf(float64(l/zero), 0) || math.IsNaN(float64(l/zero)) {
			inf++
		}
	}
	s, err := gpt.NewSampler(gpt.Policy{Temperature: 0})
	if err != nil {
		return Result{}, err
	}
	c, err := s.Sample(logits)
	if err != nil {
		return Result{}, err
	}
	best := 0
	for i, l := range logits {
		if l > logits[best] {
			best = i
		}
	}
	if c.ID != best {
		return Result{}, fmt.Errorf("temperature 0 picked %d, the argmax is %d", c.ID, best)
	}
	return Result{Ours: fmt.Sprintf("logits/0 gives %s of %s non-finite values (softmax → NaN); our Policy{Temperature: 0} picks the argmax (id %d, p %g)",
		gpt.Commas(inf), gpt.Commas(len(logits)), c.ID, c.Prob),
		Numbers: []Number{{"non-finite", float64(inf), "logits"}, {"logits", float64(len(logits)), ""},
			{"argmax", float64(c.ID), "id"}, {"p", c.Prob, ""}},
		Model: "gpt.Sampler"}, nil
}

func rowRepeatability(r *Run) (Result, error) {
	m, name, err := r.trained()
	if err != nil {
		return Result{}, err
	}
	p := gpt.Policy{Temperature: 1, Seed: 1337}
	var runs [2][]int
	for i := range runs {
		g, err := gpt.NewGenerator(m, r.promptFor(m), p, true)
		if err != nil {
			return Result{}, err
		}
		if _, err := g.Steps(reference.RepeatTokens); err != nil {
			return Result{}, err
		}
		runs[i] = g.Generated()
	}
	same := 0
	for i := range runs[0] {
		if runs[0][i] == runs[1][i] {
			same++
		}
	}
	return Result{Ours: fmt.Sprintf("%d of %d sampled tokens the same in two runs [%s]", same, len(runs[0]), p),
		Numbers: []Number{{"same", float64(same), "tokens"}, {"sampled", float64(len(runs[0])), "tokens"}}, Model: name}, nil
}

// b2f is 1 for true and 0 for false, a yes-or-no figure as a Number.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
