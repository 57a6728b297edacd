package gpt

import (
	"fmt"
	"html"
	"math"
	"strings"
	"time"
)

// Same weights, different bugs: three ways of running the same model that should agree,
// each compared one call at a time, on logits and not only on tokens (the study's habits 1
// and 3). Every comparison is greedy, so a difference in tokens can only come from a
// difference in logits; each returns a value with one exported row per step (the figures
// plot them) that renders as a table.

// logitStats compares two rows of logits: the largest |b-a|, the mean of b-a (a uniform
// shift, which softmax ignores), and the largest |b-a| left after removing that shift.
func logitStats(a, b []float32) (maxDiff, shift, maxShifted float64) {
	for i := range a {
		d := float64(b[i]) - float64(a[i])
		maxDiff = math.Max(maxDiff, math.Abs(d))
		shift += d
	}
	shift /= float64(len(a))
	for i := range a {
		d := float64(b[i]) - float64(a[i]) - shift
		maxShifted = math.Max(maxShifted, math.Abs(d))
	}
	return maxDiff, shift, maxShifted
}

// topGap is the logit of the best token minus that of the runner-up: how far greedy
// decoding is from picking another token.
func topGap(logits []float32) float64 {
	r := rankByLogit(nil, logits, 2)
	if len(r) < 2 {
		return math.Inf(1)
	}
	return float64(logits[r[0]]) - float64(logits[r[1]])
}

// CachingStep is one step of the cached and uncached greedy loops side by side.
type CachingStep struct {
	N              int     // step, from 1
	Uncached       int     // token picked by the uncached loop
	Cached         int     // token picked by the cached loop
	MaxDiff        float64 // max |Δlogit|, cached minus uncached
	Shift          float64 // mean Δlogit: the uniform part of the difference
	MaxDiffShifted float64 // max |Δlogit - Shift|: what softmax sees
	Gap            float64 // the uncached loop's top-2 logit gap
	GapChange      float64 // |cached gap - uncached gap|
	Cropped        bool    // the window moved at this step
}

// CachingComparison is the cached loop tested against the uncached one.
type CachingComparison struct {
	Prompt []int
	Steps  []CachingStep

	MaxDiff        float64 // over all steps before any divergence
	MaxDiffShifted float64
	MaxGapChange   float64
	NarrowestGap   float64 // the smallest top-2 gap the uncached loop met
	NarrowestStep  int
	FirstDiverge   int // first step whose tokens differ; 0 when they never do

	UncachedPositions, CachedPositions int           // positions forwarded by each loop
	UncachedTime, CachedTime           time.Duration // wall time of each loop
	Decoder                            Decoder       // optional: shows token text in HTML
}

// CompareCaching runs the greedy loop over prompt for steps tokens twice, without and
// with the KV cache, and compares the logits at every step: the study's "same text; logits
// differ by up to 0.011, almost all a uniform shift that softmax ignores". After the prompt
// the cached loop's matrix products see one row instead of T, so their sums run in another
// order; past the block size both loops crop the same window (see Generator).
func CompareCaching(m *Model, prompt []int, steps int) (*CachingComparison, error) {
	un, err := NewGenerator(m, prompt, Greedy, false)
	if err != nil {
		return nil, fmt.Errorf("gpt: compare caching: %w", err)
	}
	ca, _ := NewGenerator(m, prompt, Greedy, true)
	cmp := &CachingComparison{Prompt: append([]int(nil), prompt...), NarrowestGap: math.Inf(1)}
	err = lockstep(un, ca, "uncached", "cached", steps, func(su, sc Step) {
		cmp.UncachedTime += su.Time
		cmp.CachedTime += sc.Time
		s := CachingStep{N: su.N, Uncached: su.Token, Cached: sc.Token, Cropped: su.Cropped || sc.Cropped}
		s.MaxDiff, s.Shift, s.MaxDiffShifted = logitStats(su.Logits, sc.Logits)
		s.Gap = topGap(su.Logits)
		s.GapChange = math.Abs(topGap(sc.Logits) - s.Gap)
		if cmp.FirstDiverge == 0 {
			cmp.MaxDiff = math.Max(cmp.MaxDiff, s.MaxDiff)
			cmp.MaxDiffShifted = math.Max(cmp.MaxDiffShifted, s.MaxDiffShifted)
			cmp.MaxGapChange = math.Max(cmp.MaxGapChange, s.GapChange)
			if s.Gap < cmp.NarrowestGap {
				cmp.NarrowestGap, cmp.NarrowestStep = s.Gap, s.N
			}
			if s.Uncached != s.Cached {
				cmp.FirstDiverge = s.N
			}
		}
		cmp.Steps = append(cmp.Steps, s)
	})
	if err != nil {
		return nil, fmt.Errorf("gpt: compare caching: %w", err)
	}
	cmp.UncachedPositions, cmp.CachedPositions = un.Positions(), ca.Positions()
	return cmp, nil
}

// lockstep runs two greedy loops side by side for steps tokens, calling each with the two
// Steps of the same position, so that a comparison sees both loops' logits at every step.
// An error names the loop it came from (nameA or nameB).
func lockstep(a, b *Generator, nameA, nameB string, steps int, each func(sa, sb Step)) error {
	for i := 0; i < steps; i++ {
		sa, err := a.Step()
		if err != nil {
			return fmt.Errorf("%s: %w", nameA, err)
		}
		sb, err := b.Step()
		if err != nil {
			return fmt.Errorf("%s: %w", nameB, err)
		}
		each(sa, sb)
	}
	return nil
}

func (c *CachingComparison) String() string {
	same := "same tokens"
	if c.FirstDiverge > 0 {
		same = fmt.Sprintf("tokens diverge at step %d", c.FirstDiverge)
	}
	return fmt.Sprintf("cached vs uncached, greedy, %d steps: %s; max |Δlogit| %.3g (%.3g after removing the mean shift); "+
		"top-2 gap moved by at most %.3g; narrowest gap %.3g at step %d; positions %s uncached vs %s cached; time %v vs %v",
		len(c.Steps), same, c.MaxDiff, c.MaxDiffShifted, c.MaxGapChange, c.NarrowestGap, c.NarrowestStep,
		Commas(c.UncachedPositions), Commas(c.CachedPositions), c.UncachedTime.Round(time.Millisecond), c.CachedTime.Round(time.Millisecond))
}

// HTML renders the summary and one row per step.
func (c *CachingComparison) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<p><b>policy</b>: %s. %s</p>", html.EscapeString(Greedy.String()), html.EscapeString(c.String()))
	b.WriteString("<table><tr><th>step</th><th>uncached</th><th>cached</th><th>max |Δlogit|</th><th>mean shift</th>" +
		"<th>max |Δ − shift|</th><th>top-2 gap</th><th>gap change</th></tr>")
	for _, s := range c.Steps {
		crop := ""
		if s.Cropped {
			crop = " (crop)"
		}
		fmt.Fprintf(&b, "<tr><td>%d%s</td><td>%s</td><td>%s</td><td>%.2e</td><td>%.2e</td><td>%.2e</td><td>%.4f</td><td>%.2e</td></tr>",
			s.N, crop, tokenCell(c.Decoder, s.Uncached), tokenCell(c.Decoder, s.Cached), s.MaxDiff, s.Shift, s.MaxDiffShifted, s.Gap, s.GapChange)
	}
	b.WriteString("</table>")
	return b.String()
}

// tokenCell shows a token id, with its text when d is not nil.
func tokenCell(d Decoder, id int) string {
	if d == nil {
		return fmt.Sprint(id)
	}
	return quotedHTML(d, id)
}

// PrecisionStep is one step of the fp32 and bf16 greedy loops side by side.
type PrecisionStep struct {
	N              int     // step, from 1
	FP32, BF16     int     // token picked by each model
	MaxDiff        float64 // max |Δlogit|, bf16 minus fp32
	Shift          float64 // mean Δlogit
	MaxDiffShifted float64 // max |Δlogit - Shift|
	Gap            float64 // the fp32 model's top-2 logit gap
}

// PrecisionComparison is the same weights in fp32 and bf16, decoded greedily.
type PrecisionComparison struct {
	Prompt     []int
	Steps      []PrecisionStep
	FP32Tokens []int // the generated tokens of each model
	BF16Tokens []int
	Split      int     // first step whose tokens differ; 0 when they never do
	MaxDiff    float64 // over the steps before the split, where both saw the same context
	Decoder    Decoder // optional: shows the two texts in HTML
}

// ComparePrecision decodes prompt greedily for steps tokens with the fp32 model and with
// its bf16 twin (m.WithPrecision(BF16)), both with the KV cache, and reports the logit
// differences at each step and where the tokens split. Once they split, the two loops see
// different contexts, and the study found they never rejoin.
func ComparePrecision(fp32, bf16 *Model, prompt []int, steps int) (*PrecisionComparison, error) {
	if fp32 == nil || bf16 == nil {
		return nil, fmt.Errorf("gpt: compare precision: nil model")
	}
	if fp32.Precision != FP32 || bf16.Precision != BF16 {
		return nil, fmt.Errorf("gpt: compare precision: models compute in %v and %v, want fp32 and bf16", fp32.Precision, bf16.Precision)
	}
	a, err := NewGenerator(fp32, prompt, Greedy, true)
	if err != nil {
		return nil, fmt.Errorf("gpt: compare precision: %w", err)
	}
	b, _ := NewGenerator(bf16, prompt, Greedy, true)
	cmp := &PrecisionComparison{Prompt: append([]int(nil), prompt...)}
	err = lockstep(a, b, "fp32", "bf16", steps, func(sa, sb Step) {
		s := PrecisionStep{N: sa.N, FP32: sa.Token, BF16: sb.Token, Gap: topGap(sa.Logits)}
		s.MaxDiff, s.Shift, s.MaxDiffShifted = logitStats(sa.Logits, sb.Logits)
		if cmp.Split == 0 {
			cmp.MaxDiff = math.Max(cmp.MaxDiff, s.MaxDiff)
			if s.FP32 != s.BF16 {
				cmp.Split = s.N
			}
		}
		cmp.Steps = append(cmp.Steps, s)
	})
	if err != nil {
		return nil, fmt.Errorf("gpt: compare precision: %w", err)
	}
	cmp.FP32Tokens, cmp.BF16Tokens = a.Generated(), b.Generated()
	return cmp, nil
}

func (c *PrecisionComparison) String() string {
	split := "the tokens never split"
	if c.Split > 0 {
		split = fmt.Sprintf("the tokens split at step %d", c.Split)
	}
	return fmt.Sprintf("fp32 vs bf16, greedy, %d steps: %s; max |Δlogit| before the split %.3g", len(c.Steps), split, c.MaxDiff)
}

// HTML renders the summary, the two continuations when a Decoder is set, and one row per step.
func (c *PrecisionComparison) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<p><b>policy</b>: %s. %s</p>", html.EscapeString(Greedy.String()), html.EscapeString(c.String()))
	if c.Decoder != nil {
		fmt.Fprintf(&b, "<p>fp32: %s<br>bf16: %s</p>", quotedHTML(c.Decoder, c.FP32Tokens...), quotedHTML(c.Decoder, c.BF16Tokens...))
	}
	b.WriteString("<table><tr><th>step</th><th>fp32</th><th>bf16</th><th>max |Δlogit|</th><th>mean shift</th><th>max |Δ − shift|</th><th>fp32 top-2 gap</th></tr>")
	for _, s := range c.Steps {
		mark := ""
		if s.N == c.Split {
			mark = " (split)"
		}
		fmt.Fprintf(&b, "<tr><td>%d%s</td><td>%s</td><td>%s</td><td>%.2e</td><td>%.2e</td><td>%.2e</td><td>%.4f</td></tr>",
			s.N, mark, tokenCell(c.Decoder, s.FP32), tokenCell(c.Decoder, s.BF16), s.MaxDiff, s.Shift, s.MaxDiffShifted, s.Gap)
	}
	b.WriteString("</table>")
	return b.String()
}

// BatchRow compares one row of a batched forward with the single-prompt forward.
type BatchRow struct {
	Row         int     // index in the batch
	MaxDiff     float64 // max |Δlogit| over every position
	LastMaxDiff float64 // max |Δlogit| at the last position, the one generation uses
	TokensEqual bool    // the argmax agrees at every position
}

// BatchComparison is the same prompt run alone and repeated in one batch.
type BatchComparison struct {
	Prompt      []int
	Batch       int
	Rows        []BatchRow
	MaxDiff     float64 // over all rows and positions
	TokensEqual bool    // every row picks the single run's tokens at every position
}

// CompareBatch forwards prompt alone (batch 1) and batch times in one batch, and compares
// every row's logits at every position with the single run's: the study's "tokens kept,
// logits moved up to 0.005" — a batch changes the shapes the matrix kernels see, and with
// them, in most libraries, the order of the sums. Ours keep the order from 6 positions on, so
// the logits do not move at all there (batchinvariance.go says where they can).
func CompareBatch(m *Model, prompt []int, batch int) (*BatchComparison, error) {
	if batch < 1 {
		return nil, fmt.Errorf("gpt: compare batch: batch %d, want ≥ 1", batch)
	}
	single, err := m.ForwardAll([][]int{prompt})
	if err != nil {
		return nil, fmt.Errorf("gpt: compare batch: %w", err)
	}
	rows := make([][]int, batch)
	for i := range rows {
		rows[i] = prompt
	}
	batched, err := m.ForwardAll(rows)
	if err != nil {
		return nil, fmt.Errorf("gpt: compare batch: %w", err)
	}
	T := single.T
	cmp := &BatchComparison{Prompt: append([]int(nil), prompt...), Batch: batch, TokensEqual: true}
	for b := 0; b < batch; b++ {
		r := BatchRow{Row: b, TokensEqual: true}
		for t := 0; t < T; t++ {
			want, got := single.Row(0, t), batched.Row(b, t)
			d, _, _ := logitStats(want, got)
			r.MaxDiff = math.Max(r.MaxDiff, d)
			if t == T-1 {
				r.LastMaxDiff = d
			}
			if argmax(want) != argmax(got) {
				r.TokensEqual = false
			}
		}
		cmp.MaxDiff = math.Max(cmp.MaxDiff, r.MaxDiff)
		cmp.TokensEqual = cmp.TokensEqual && r.TokensEqual
		cmp.Rows = append(cmp.Rows, r)
	}
	return cmp, nil
}

func (c *BatchComparison) String() string {
	tok := "tokens kept"
	if !c.TokensEqual {
		tok = "tokens changed"
	}
	return fmt.Sprintf("the prompt (%d tokens) alone vs %d times in one batch: %s, max |Δlogit| %.3g", len(c.Prompt), c.Batch, tok, c.MaxDiff)
}

// HTML renders the summary and one row per batch row.
func (c *BatchComparison) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<p>%s</p><table><tr><th>row</th><th>max |Δlogit|, all positions</th><th>last position</th><th>argmax equal</th></tr>",
		html.EscapeString(c.String()))
	for _, r := range c.Rows {
		fmt.Fprintf(&b, "<tr><td>%d</td><td>%.2e</td><td>%.2e</td><td>%v</td></tr>", r.Row, r.MaxDiff, r.LastMaxDiff, r.TokensEqual)
	}
	b.WriteString("</table>")
	return b.String()
}
