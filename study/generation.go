package study

import (
	"fmt"
	"strings"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

// The rows of "Generation is a loop": the positions each loop pushes through the stack, the time
// that costs, the KV cache's size, 1,023 cached tokens, and the cache past the block size.

func rowPositions(r *Run) (Result, error) {
	// The count the Generator makes as it runs, on a model small enough to run 256 steps of
	// both loops in no time, against gpt.Positions on paper.
	counts := viz.CountPositions(11, everyN(8, 512))
	// The generator's own tally over 11 + 256 positions needs a block of at least 267: a
	// Tiny config with a longer block runs both loops in a moment.
	cfg := gpt.Tiny
	cfg.BlockSize = 512
	mm, err := gpt.New(cfg)
	if err != nil {
		return Result{}, err
	}
	mm.Init(1, true)
	prompt := tokens(11, cfg.VocabSize)
	var measured [2]int
	for i, cached := range []bool{false, true} {
		g, err := gpt.NewGenerator(mm, prompt, gpt.Greedy, cached)
		if err != nil {
			return Result{}, err
		}
		if _, err := g.Steps(256); err != nil {
			return Result{}, err
		}
		measured[i] = g.Positions()
	}
	un, ca := gpt.Positions(11, 256)
	if measured[0] != un || measured[1] != ca {
		return Result{}, fmt.Errorf("the generator pushed %d / %d positions, gpt.Positions says %d / %d", measured[0], measured[1], un, ca)
	}
	r.counts = counts
	if err := r.save(viz.Positions(counts, r.timings), "positions"); err != nil {
		return Result{}, err
	}
	if err := r.saveHTML(viz.SliderPositions(viz.CountPositions(11, everyN(16, 512))), "positions_slider"); err != nil {
		return Result{}, err
	}
	return Result{Ours: fmt.Sprintf("%s without a cache, %s with one (counted by the Generator and by gpt.Positions)",
		gpt.Commas(un), gpt.Commas(ca)),
		Numbers: []Number{{"uncached positions", float64(un), "positions"}, {"cached positions", float64(ca), "positions"}},
		Model:   "Generator tally (any model), gpt.Positions", Figures: []string{"positions"}, Pages: []string{"positions_slider"}}, nil
}

func everyN(step, last int) []int {
	var xs []int
	for n := step; n <= last; n += step {
		xs = append(xs, n)
	}
	return xs
}

func rowTimeRatio(r *Run) (Result, error) {
	m, name, err := r.timingModel()
	if err != nil {
		return Result{}, err
	}
	news := []int{64, 256, 512}
	last := news[len(news)-1]
	prompt := tokens(11, m.Config.VocabSize)

	// Cached: one greedy run of 512 steps; the time to the 64th and 256th token is the time
	// a 64- or 256-token run takes.
	g, err := gpt.NewGenerator(m, prompt, gpt.Greedy, true)
	if err != nil {
		return Result{}, err
	}
	var cached []time.Duration // cumulative, per step
	var sum time.Duration
	for i := 0; i < last; i++ {
		st, err := g.Step()
		if err != nil {
			return Result{}, err
		}
		sum += st.Time
		cached = append(cached, sum)
		r.note("time-ratio: cached loop, %d of %d tokens", i+1, last)
	}
	// Uncached: step i forwards the whole context of 11+i tokens, whatever the tokens are,
	// so its time depends on i only. Time every k-th step and count it k times.
	k := r.sampleK
	uncached := make([]time.Duration, last)
	ids := append(append([]int(nil), prompt...), g.Generated()...)
	sum = 0
	for i := 0; i < last; i += k {
		t0 := time.Now()
		if _, err := m.NextLogits(ids[:11+i]); err != nil {
			return Result{}, err
		}
		d := time.Since(t0)
		r.note("time-ratio: uncached loop, step %d of %d (%d positions: %.2f s)", i+1, last, 11+i, d.Seconds())
		for j := i; j < min(i+k, last); j++ {
			sum += d
			uncached[j] = sum
		}
	}
	r.timings = nil
	var parts []string
	var nums []Number
	for _, n := range news {
		t := viz.DecodeTiming{NewTokens: n, Cached: cached[n-1], Uncached: uncached[n-1]}
		r.timings = append(r.timings, t)
		un, ca := gpt.Positions(11, n)
		parts = append(parts, fmt.Sprintf("%d: positions %s, time %s (%.1f s vs %.1f s)", n,
			viz.Ratio(float64(un)/float64(ca)), viz.Ratio(t.Ratio()), t.Uncached.Seconds(), t.Cached.Seconds()))
		nums = append(nums, Number{fmt.Sprintf("%d: positions ratio", n), float64(un) / float64(ca), ""},
			Number{fmt.Sprintf("%d: time ratio", n), t.Ratio(), ""},
			Number{fmt.Sprintf("%d: uncached", n), t.Uncached.Seconds(), "s"},
			Number{fmt.Sprintf("%d: cached", n), t.Cached.Seconds(), "s"})
	}
	counts := r.counts
	if counts == nil {
		counts = viz.CountPositions(11, everyN(8, 512))
	}
	if err := r.save(viz.Positions(counts, r.timings), "positions"); err != nil {
		return Result{}, err
	}
	sampled := "every step"
	if k > 1 {
		sampled = fmt.Sprintf("uncached loop timed on every %dth step and counted for the steps between", k)
	}
	return Result{Ours: strings.Join(parts, "; ") + " (" + sampled + ")", Numbers: nums, Model: name, Figures: []string{"positions"}}, nil
}

func rowKVCache(r *Run) (Result, error) {
	// Measured: the allocation of a GPT-2 small cache (its parameters are not needed).
	m, err := gpt.New(gpt.Small)
	if err != nil {
		return Result{}, err
	}
	c := m.NewCache()
	small := gpt.CacheBytes(gpt.Small, 1024, 4)
	if c.Bytes() != small {
		return Result{}, fmt.Errorf("a GPT-2 small cache allocates %d bytes, 2·L·T·C·4 = %d", c.Bytes(), small)
	}
	budget := gpt.Budget(10, 1024)
	var xl gpt.BudgetRow
	for _, row := range budget.Rows {
		if row.Name == "xl" && row.Format == "bf16" {
			xl = row
		}
	}
	if err := r.save(viz.CacheBudget(budget, 16), "budget"); err != nil {
		return Result{}, err
	}
	if err := r.saveHTML(viz.SliderBudget(budget, 16), "budget_slider"); err != nil {
		return Result{}, err
	}
	return Result{Ours: fmt.Sprintf("%s bytes per position for small fp32; %s at 1,024 (allocated: %s); XL bf16 %s per sequence vs %s of weights (%.1f sequences)",
		gpt.Commas(gpt.CacheBytes(gpt.Small, 1, 4)), gpt.MB(small), gpt.MB(c.Bytes()), gpt.MB(xl.PerSequence), gpt.MB(xl.Weights), xl.Equal),
		Numbers: []Number{{"small per position", float64(gpt.CacheBytes(gpt.Small, 1, 4)), "bytes"},
			{"small at 1,024", float64(small), "bytes"}, {"small allocated", float64(c.Bytes()), "bytes"},
			{"XL bf16 per sequence", float64(xl.PerSequence), "bytes"}, {"XL bf16 weights", float64(xl.Weights), "bytes"},
			{"XL sequences", xl.Equal, ""}},
		Model: "arithmetic + GPT-2 small cache allocation", Figures: []string{"budget"}, Pages: []string{"budget_slider"}}, nil
}

func rowDecode1023(r *Run) (Result, error) {
	m, name, err := r.timingModel()
	if err != nil {
		return Result{}, err
	}
	g, err := gpt.NewGenerator(m, []int{50256}, gpt.Greedy, true)
	if err != nil {
		return Result{}, err
	}
	t0 := time.Now()
	for i := 0; i < 1023; i++ {
		if _, err := g.Step(); err != nil {
			return Result{}, err
		}
		r.note("decode-1023: %d of 1,023 tokens", i+1)
	}
	d := time.Since(t0)
	fwd, err := r.forwardTime()
	if err != nil {
		return Result{}, err
	}
	return Result{Ours: fmt.Sprintf("%.1f s (%.1f tokens/s), %.0f× the %.2f s forward over 1,024 positions",
		d.Seconds(), 1023/d.Seconds(), d.Seconds()/fwd.Seconds(), fwd.Seconds()),
		Numbers: []Number{{"decode", d.Seconds(), "s"}, {"rate", 1023 / d.Seconds(), "tokens/s"},
			{"decode ÷ forward", d.Seconds() / fwd.Seconds(), ""}, {"forward", fwd.Seconds(), "s"}},
		Model: name}, nil
}

func rowCrop(r *Run) (Result, error) {
	m, err := gpt.New(gpt.Tiny)
	if err != nil {
		return Result{}, err
	}
	m.Init(1, true)
	steps := 3 * gpt.Tiny.BlockSize
	c, err := gpt.CompareCaching(m, tokens(11, gpt.Tiny.VocabSize), steps)
	if err != nil {
		return Result{}, err
	}
	crops := 0
	for _, s := range c.Steps {
		if s.Cropped {
			crops++
		}
	}
	same := "identical tokens"
	if c.FirstDiverge > 0 {
		same = fmt.Sprintf("tokens differ from step %d", c.FirstDiverge)
	}
	return Result{Ours: fmt.Sprintf("%d steps through a block of %d, %d crops re-prefilled: %s, max |Δlogit| %.2g",
		steps, gpt.Tiny.BlockSize, crops, same, c.MaxDiff),
		Numbers: []Number{{"steps", float64(steps), ""}, {"block", float64(gpt.Tiny.BlockSize), "positions"},
			{"crops", float64(crops), ""}, {"first divergence", float64(c.FirstDiverge), "step"}, {"max |Δlogit|", c.MaxDiff, ""}},
		Model: "gpt.Tiny (block 64), random init (seed 1)"}, nil
}
