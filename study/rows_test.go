package study

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/gptnotes/gptnotes/study/reference"
)

// A want is what one number of a row must be: the study's figure (package reference) and how
// far ours may sit from it. Configuration and counts are exact (tol 0); a figure the study
// rounds may sit within half its last digit; a difference the study saw on GPT-2 small is
// an upper bound for ours (atMost).
type want struct {
	row, number string
	value       float64
	tol         float64 // |ours − value| ≤ tol; 0: exactly
	atMost      bool    // ours ≤ value + tol instead
	why         string  // where the tolerance comes from, when there is one
}

// check compares each want with the number its row measured, and fails on a number that is
// missing or past its tolerance.
func check(t *testing.T, results map[string]Result, wants []want) {
	t.Helper()
	for _, w := range wants {
		res, ok := results[w.row]
		if !ok {
			t.Errorf("%s: not measured", w.row)
			continue
		}
		got, ok := res.Value(w.number)
		if !ok {
			t.Errorf("%s: no number %q in %v", w.row, w.number, res.Numbers)
			continue
		}
		if err := w.compare(got); err != nil {
			t.Errorf("%s: %s: %v (ours: %s)", w.row, w.number, err, res.Ours)
		}
	}
}

// compare says how got misses w, or nil.
func (w want) compare(got float64) error {
	switch {
	case math.IsNaN(got):
		return fmt.Errorf("NaN")
	case w.atMost && got > w.value+w.tol:
		return fmt.Errorf("%g, want at most %g (%s)", got, w.value, w.why)
	case !w.atMost && w.tol == 0 && got != w.value:
		return fmt.Errorf("%g, want exactly %g", got, w.value)
	case !w.atMost && math.Abs(got-w.value) > w.tol:
		return fmt.Errorf("%g, want %g ± %g (%s)", got, w.value, w.tol, w.why)
	}
	return nil
}

// measure runs the rows called names in one Run (they share its models) and returns what
// each measured.
func measure(t *testing.T, names ...string) map[string]Result {
	t.Helper()
	r := NewRun(Options{Out: t.TempDir()})
	results := map[string]Result{}
	for _, n := range names {
		res, err := r.Measure(n)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		results[n] = res
	}
	return results
}

// cheapWants are the numbers of the rows that are arithmetic, allocation or a tiny model,
// against the study.
func cheapWants() []want {
	const (
		L, C, V, T = reference.SmallLayers, reference.SmallChannels, reference.SmallVocab, reference.SmallBlockSize
		kvPerPos   = 2 * L * C * 4 // bytes: a key and a value of C float32 per block
		rounded    = "the study rounds to its last digit"
	)
	return []want{
		{row: "config", number: "positions", value: T},
		{row: "config", number: "blocks", value: L},
		{row: "config", number: "heads", value: reference.SmallHeads},
		{row: "config", number: "width", value: C},
		{row: "config", number: "vocab", value: V},
		{row: "config", number: "padded vocab", value: reference.SmallVocabPadded},
		{row: "params", number: "parameters", value: reference.SmallParamsTied},
		{row: "untied", number: "parameters", value: reference.SmallParamsUntied},
		{row: "token-share", number: "token table", value: V * C},
		{row: "token-share", number: "parameters", value: reference.SmallParamsTied},
		{row: "token-share", number: "share", value: reference.TokenShare, tol: 0.005, why: "the study says ≈31%"},
		{row: "wpe", number: "wpe rows", value: T},
		{row: "wpe", number: "wpe columns", value: C},
		{row: "wpe", number: "refused length", value: 1100},
		{row: "tokenizer", number: "strings", value: float64(len(tokenizerSamples))},
		{row: "tokenizer", number: "vocab", value: V},
		{row: "positions", number: "uncached positions", value: reference.PositionsUncached},
		{row: "positions", number: "cached positions", value: reference.PositionsCached},
		{row: "kv-cache", number: "small per position", value: kvPerPos},
		{row: "kv-cache", number: "small at 1,024", value: kvPerPos * T},
		{row: "kv-cache", number: "small allocated", value: kvPerPos * T},
		{row: "kv-cache", number: "small per position", value: reference.KVSmallPerPositionKB * 1e3, tol: 500, why: rounded},
		{row: "kv-cache", number: "small at 1,024", value: reference.KVSmall1024MB * 1e6, tol: 0.5e6, why: rounded},
		{row: "kv-cache", number: "XL bf16 per sequence", value: reference.KVXLSequenceMB * 1e6, tol: 0.5e6, why: rounded},
		{row: "kv-cache", number: "XL bf16 weights", value: reference.XLWeightsGB * 1e9, tol: 0.05e9, why: rounded},
		{row: "kv-cache", number: "XL sequences", value: reference.XLSequences, tol: 0.5, why: "the study says ≈10"},
		{row: "crop", number: "steps", value: 3 * 64},
		{row: "crop", number: "block", value: 64},
		{row: "crop", number: "first divergence", value: 0}, // a cached loop that re-prefills after each crop writes the uncached loop's tokens
		{row: "crop", number: "max |Δlogit|", value: 1e-4, atMost: true, why: "re-prefilled, only the summation order differs"},
		{row: "temperature-0", number: "non-finite", value: V},
		{row: "temperature-0", number: "logits", value: V},
		{row: "temperature-0", number: "p", value: 1}, // temperature 0 is argmax: all the mass on one token
		{row: "nanogpt-defaults", number: "temperature", value: reference.NanoGPTTemperature},
		{row: "nanogpt-defaults", number: "top-k", value: reference.NanoGPTTopK},
		{row: "nanogpt-defaults", number: "top-p", value: 0},
	}
}

// The cheap rows' numbers against the study: the configuration and the counts exactly, the
// cache sizes within the study's rounding.
func TestCheapRowNumbers(t *testing.T) {
	t.Setenv("GPT2_WEIGHTS", filepath.Join(t.TempDir(), "no-such-model.safetensors"))
	results := measure(t, "config", "params", "untied", "token-share", "wpe", "tokenizer", "positions", "kv-cache",
		"crop", "temperature-0", "nanogpt-defaults")
	check(t, results, cheapWants())
}

// GPT-2 small at GPT-2's init, and its untrained loss: the draws' standard deviations within
// 0.5% (88.9M and 35.4M numbers put the sampling error near 0.01%), biases and LayerNorm exact,
// the loss of random weights near ln V.
func TestInitRowNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("draws GPT-2 small's 124M parameters")
	}
	std, resid := reference.InitStd, reference.InitStd/math.Sqrt(2*reference.SmallLayers)
	results := measure(t, "init", "forward-targets")
	check(t, results, []want{
		{row: "init", number: "matrix std", value: std, tol: 0.005 * std, why: "0.5% of N(0, 0.02)"},
		{row: "init", number: "c_proj std", value: resid, tol: 0.005 * resid, why: "0.5% of N(0, 0.02/√24)"},
		{row: "init", number: "max |bias|", value: 0},
		{row: "init", number: "max |LayerNorm weight − 1|", value: 0},
		{row: "forward-targets", number: "logits B", value: 1},
		{row: "forward-targets", number: "logits T", value: 92},
		{row: "forward-targets", number: "logits V", value: reference.SmallVocab},
		{row: "forward-targets", number: "loss", value: reference.UntrainedLoss, tol: 0.25,
			why: "the study's ≈10.8; 92 positions of one random init scatter about ln V by a few tenths"},
	})
}

// Breaking a number is caught: a figure past its tolerance, an inexact count and a number a
// row does not have are each reported.
func TestCheckFailsPastTolerance(t *testing.T) {
	for _, c := range []struct {
		w   want
		got float64
	}{
		{want{value: 0.31, tol: 0.005}, 0.32},
		{want{value: 266}, 267},
		{want{value: 0.011, atMost: true}, 0.02},
		{want{value: 1}, math.NaN()},
	} {
		if err := c.w.compare(c.got); err == nil {
			t.Errorf("%+v accepted %g", c.w, c.got)
		}
	}
	for _, c := range []struct {
		w   want
		got float64
	}{
		{want{value: 0.31, tol: 0.005}, 0.3102},
		{want{value: 266}, 266},
		{want{value: 0.011, atMost: true}, 1e-5},
	} {
		if err := c.w.compare(c.got); err != nil {
			t.Errorf("%+v refused %g: %v", c.w, c.got, err)
		}
	}
}
