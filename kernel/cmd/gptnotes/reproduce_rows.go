package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

// The rows of MEASUREMENTS.md, in its order. Each run function measures with the gpt
// package and writes its figures with viz; nothing here is a stored answer.

const (
	secConfig   = "GPT-2's configuration and its five decisions"
	secTraining = "Training is one call"
	secLoop     = "Generation is a loop"
	secBugs     = "Same weights, different bugs"
	secSampling = "Sampling is a policy on top"
	secExtra    = "Figures of the notebooks"
)

func studyRows() []studyRow {
	return []studyRow{
		{name: "config", section: secConfig, figure: "GPT-2 small config",
			study: "1,024 positions, 12 blocks, 12 heads, width 768, vocab 50,257 (nanoGPT pads to 50,304)",
			run:   rowConfig},
		{name: "params", section: secConfig, figure: "parameters, tied token table / lm_head",
			study: "124,439,808 (≈124M)", run: rowParams},
		{name: "untied", section: secConfig, figure: "parameters if the output layer were untied",
			study: "163,037,184 (≈163M)", run: rowUntied},
		{name: "token-share", section: secConfig, figure: "share of the token table in the tied model",
			study: "≈31%", run: rowTokenShare},
		{name: "wpe", section: secConfig, figure: "learned position table; forwarding 1,100 positions",
			study: `wpe shape [1024, 768]; "Cannot forward sequence of length 1100, block size is only 1024"`, run: rowWpe},
		{name: "init", section: secConfig, figure: "init: matrices and tables N(0, 0.02), residual writes N(0, 0.02/√(2L)), biases 0, LayerNorm 1/0",
			study: "std 0.02; attn.c_proj and mlp.c_proj 0.02/√24 = 0.00408", run: rowInit},
		{name: "residual", section: secConfig, figure: "residual-stream norm growth at init, width 768, input of block 1 → output of the last, 64 random tokens, 3 seeds",
			study: "scaled ≈11× at 12 blocks, ≈11× at 48; plain 0.02 ≈55× at 12, ≈112× at 48 (PyTorch here: 10.72, 10.75, 54.33, 113.05)",
			run:   rowResidual},
		{name: "forward-targets", section: secTraining, figure: "forward with targets over 92 positions",
			study: "logits [1, 92, 50257] and one loss ≈ ln 50257 ≈ 10.8 untrained", run: rowForwardTargets},
		{name: "forward-last", section: secTraining, figure: "forward without targets",
			study: "logits for the last position only", run: rowForwardLast},
		{name: "forward-1024", section: secTraining, figure: "one forward over 1,024 positions, batch 1, fp32",
			study: "0.23 s on the study's laptop (PyTorch on this machine: 3.09 s fp32)", run: rowForward1024},
		{name: "positions", section: secLoop, figure: "positions pushed through the stack, 11-token prompt, 256 new tokens",
			study: "35,456 without a cache, 266 with one", run: rowPositions},
		{name: "time-ratio", section: secLoop, figure: "64 / 256 / 512 new tokens: uncached ÷ cached, positions and time",
			study: "positions 37× / 133× / 261×, time 2.9× / 5.0× / 7.4× (PyTorch here: 2.16× / 5.01× / 8.75×)", run: rowTimeRatio},
		{name: "kv-cache", section: secLoop, figure: "KV cache size, 2·L·T·d numbers",
			study: "≈74 kB per position for GPT-2 small fp32; 75 MB at 1,024; XL bf16 315 MB per sequence vs 3.1 GB of weights (≈10 sequences)",
			run:   rowKVCache},
		{name: "decode-1023", section: secLoop, figure: "1,023 tokens with the cache, and the forward over the same length",
			study: "9.3 s, ≈40× the forward (PyTorch here: 45.9 s, forward 3.09 s)", run: rowDecode1023},
		{name: "crop", section: secLoop, figure: "past the block size: crop and re-prefill, cached vs uncached",
			study: "cropping makes the whole cache stale; a cached loop must recompute", run: rowCrop},
		{name: "cached-vs-uncached", section: secBugs, figure: "cached vs uncached greedy, 200 steps", kind: trainedModel,
			study: "same text; logits differ by up to 0.011, almost all a uniform shift; top-2 gap moved ≤ 0.00005; narrowest gap 0.004",
			run:   rowCachedVsUncached},
		{name: "why", section: secBugs, figure: "why they differ", kind: fact,
			study: "after the prompt every matmul sees one row instead of T: other kernels, other summation order"},
		{name: "bf16", section: secBugs, figure: "bf16 weights vs fp32, greedy", kind: trainedModel,
			study: `split at the third token (" were not working." vs " were not being run on the same system"), never rejoin`,
			run:   rowBF16},
		{name: "batch", section: secBugs, figure: "the same prompt 8 times in one batch", kind: trainedModel,
			study: "tokens kept, logits moved up to 0.005 vs the single run", run: rowBatch},
		{name: "temperature-0", section: secBugs, figure: "temperature 0",
			study: "nanoGPT divides by zero → inf → NaN; most APIs treat 0 as argmax", run: rowTemperature0},
		{name: "repeatability", section: secBugs, figure: "same seed, same machine", kind: trainedModel,
			study: "the same 40 sampled tokens", run: rowRepeatability},
		{name: "capital", section: secSampling, figure: `"The capital of France is": top candidates, 90% set at T=1, entropy`, kind: openAIOnly,
			study: `" the" 8.5%, " Paris" 5th at 3.2%; 1,504 tokens; 8.7 bits`, run: rowCapital},
		{name: "numpy", section: secSampling, figure: `"import numpy as": top candidate, 90% set, entropy`, kind: openAIOnly,
			study: `" np" 85%; 3 tokens; 1.5 bits`, run: rowNumpy},
		{name: "top-k-200", section: secSampling, figure: "top-k 200 at T=0.8", kind: openAIOnly,
			study: "holds 89% after the capital prompt; after numpy keeps 199 options sharing under 5%", run: rowTopK200},
		{name: "top-p-0.9", section: secSampling, figure: "top-p 0.9 at T=0.8", kind: openAIOnly,
			study: "237 tokens for capital, 1 for numpy", run: rowTopP},
		{name: "greedy-repeats", section: secSampling, figure: "greedy GPT-2 small, 200 tokens", kind: openAIOnly,
			study: "repeats its own sentence", run: rowGreedyRepeats},
		{name: "nanogpt-defaults", section: secSampling, figure: "nanoGPT sample.py defaults",
			study: "temperature 0.8, top-k 200, no top-p", run: rowNanoGPTDefaults},
		{name: "attention", section: secExtra, figure: "attention of one layer and head, and of every head of that layer (notebook figure, not a study row)",
			study: "—", run: rowAttention},
		{name: "sampling-figures", section: secExtra, figure: "next-token candidates and top-p/top-k against temperature on the model used (notebook figure)",
			study: "—", kind: trainedModel, run: rowSamplingFigures},
		{name: "loss-curve", section: secExtra, figure: "training loss curve (notebook figure, not a study row)",
			study: "—", run: rowLossCurve},
	}
}

// ---- GPT-2's configuration and its five decisions

func rowConfig(r *reproducer) (rowResult, error) {
	c := gpt.Small
	padded := (c.VocabSize + 63) / 64 * 64
	return rowResult{ours: fmt.Sprintf("%s positions, %d blocks, %d heads, width %d, vocab %s (padded to a multiple of 64: %s)",
		gpt.Commas(c.BlockSize), c.Layers, c.Heads, c.Channels, gpt.Commas(c.VocabSize), gpt.Commas(padded)),
		model: "gpt.Small"}, nil
}

func rowParams(r *reproducer) (rowResult, error) {
	return rowResult{ours: gpt.Commas(gpt.Count(gpt.Small).Tied), model: "gpt.Count(gpt.Small)"}, nil
}

func rowUntied(r *reproducer) (rowResult, error) {
	return rowResult{ours: gpt.Commas(gpt.Count(gpt.Small).Untied), model: "gpt.Count(gpt.Small)"}, nil
}

func rowTokenShare(r *reproducer) (rowResult, error) {
	c := gpt.Count(gpt.Small)
	return rowResult{ours: fmt.Sprintf("%.1f%% (%s of %s)", 100*c.TokenShare, gpt.Commas(c.TokenTable), gpt.Commas(c.Tied)),
		model: "gpt.Count(gpt.Small)"}, nil
}

func rowWpe(r *reproducer) (rowResult, error) {
	m, err := gpt.New(gpt.Small) // zeroed: the shape check comes before any arithmetic
	if err != nil {
		return rowResult{}, err
	}
	wpe, ok := m.Params.Tensor("wpe.weight")
	if !ok {
		return rowResult{}, fmt.Errorf("no wpe.weight")
	}
	_, err = m.Forward([][]int{make([]int, 1100)}, nil)
	if err == nil {
		return rowResult{}, fmt.Errorf("forwarding 1,100 positions did not fail")
	}
	return rowResult{ours: fmt.Sprintf("wpe shape %v; %q", wpe.Shape, err.Error()), model: "GPT-2 small, zeroed"}, nil
}

func rowInit(r *reproducer) (rowResult, error) {
	m, err := r.smallModel()
	if err != nil {
		return rowResult{}, err
	}
	var matrix, resid moments
	var biasMax, lnOff float64
	for _, t := range m.Params.Tensors {
		switch {
		case strings.HasSuffix(t.Name, "c_proj.weight"):
			resid.add(t.Data)
		case len(t.Shape) == 2:
			matrix.add(t.Data)
		case strings.Contains(t.Name, "ln_") && strings.HasSuffix(t.Name, ".weight"):
			for _, v := range t.Data {
				lnOff = math.Max(lnOff, math.Abs(float64(v)-1))
			}
		default:
			for _, v := range t.Data {
				biasMax = math.Max(biasMax, math.Abs(float64(v)))
			}
		}
	}
	return rowResult{ours: fmt.Sprintf("matrices and tables std %.5f (%s numbers), c_proj std %.5f (%s numbers), max |bias| %g, max |LayerNorm weight − 1| %g",
		matrix.std(), gpt.Commas(matrix.n), resid.std(), gpt.Commas(resid.n), biasMax, lnOff), model: smallRandom}, nil
}

// moments accumulates the count, sum and sum of squares of numbers.
type moments struct {
	n       int
	sum, sq float64
}

func (m *moments) add(x []float32) {
	for _, v := range x {
		m.sum += float64(v)
		m.sq += float64(v) * float64(v)
	}
	m.n += len(x)
}

func (m *moments) std() float64 {
	n := float64(m.n)
	return math.Sqrt(m.sq/n - (m.sum/n)*(m.sum/n))
}

func rowResidual(r *reproducer) (rowResult, error) {
	// 4 settings × 3 seeds, two at a time (each draws its weights on one core). The
	// vocabulary does not change the figure (ResidualGrowth's doc); 1,024 makes it quick.
	type job struct {
		layers int
		scaled bool
		seed   uint64
	}
	var jobs []job
	for _, c := range []job{{12, true, 0}, {48, true, 0}, {12, false, 0}, {48, false, 0}} {
		for seed := uint64(1); seed <= 3; seed++ {
			jobs = append(jobs, job{c.layers, c.scaled, seed})
		}
	}
	gs := make([]gpt.Growth, len(jobs))
	errs := make([]error, len(jobs))
	next, done := make(chan int), make(chan int, len(jobs))
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				cfg := gpt.Config{VocabSize: 1024, BlockSize: 1024, Layers: j.layers, Heads: 12, Channels: 768}
				gs[i], errs[i] = gpt.ResidualGrowth(cfg, j.seed, j.scaled, 64)
				done <- i
			}
		}()
	}
	go func() {
		for i := range jobs {
			next <- i
		}
		close(next)
	}()
	for n := 1; n <= len(jobs); n++ {
		j := jobs[<-done]
		r.note("residual: %d of %d runs done (last: %d blocks, scaled %v, seed %d)", n, len(jobs), j.layers, j.scaled, j.seed)
	}
	wg.Wait()
	var parts []string
	for i := 0; i < len(jobs); i += 3 {
		mean := 0.0
		for k := i; k < i+3; k++ {
			if errs[k] != nil {
				return rowResult{}, errs[k]
			}
			mean += gs[k].Final() / 3
		}
		init := "plain"
		if jobs[i].scaled {
			init = "scaled"
		}
		parts = append(parts, fmt.Sprintf("%s %d blocks %.2f", init, jobs[i].layers, mean))
	}
	if err := r.save(viz.ResidualNorms(gs), "residual"); err != nil {
		return rowResult{}, err
	}
	return rowResult{ours: strings.Join(parts, ", ") + " (mean of seeds 1–3)",
		model: "random init, width 768, 12 heads, vocab 1,024, gpt.ResidualGrowth", figures: []string{"residual"}}, nil
}

// ---- Training is one call

// tokens returns n token ids of a fixed pseudo-random sequence below vocab.
func tokens(n, vocab int) []int {
	ids := make([]int, n)
	x := uint64(0x9e3779b97f4a7c15)
	for i := range ids {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		ids[i] = int(x % uint64(vocab))
	}
	return ids
}

func rowForwardTargets(r *reproducer) (rowResult, error) {
	m, err := r.smallModel()
	if err != nil {
		return rowResult{}, err
	}
	ids := tokens(93, m.Config.VocabSize)
	out, err := m.Forward([][]int{ids[:92]}, [][]int{ids[1:]})
	if err != nil {
		return rowResult{}, err
	}
	return rowResult{ours: fmt.Sprintf("logits [%d, %d, %d], loss %.3f (ln %d = %.3f)",
		out.B, out.T, out.V, out.Loss, m.Config.VocabSize, math.Log(float64(m.Config.VocabSize))), model: smallRandom}, nil
}

func rowForwardLast(r *reproducer) (rowResult, error) {
	m, err := r.smallModel()
	if err != nil {
		return rowResult{}, err
	}
	out, err := m.Forward([][]int{tokens(92, m.Config.VocabSize)}, nil)
	if err != nil {
		return rowResult{}, err
	}
	return rowResult{ours: fmt.Sprintf("92 positions in, logits [%d, %d, %d] out, loss %v", out.B, out.T, out.V, out.Loss),
		model: smallRandom}, nil
}

func rowForward1024(r *reproducer) (rowResult, error) {
	d, err := r.forwardTime()
	if err != nil {
		return rowResult{}, err
	}
	_, name, _ := r.timingModel()
	return rowResult{ours: fmt.Sprintf("%.2f s (all 1,024 × 50,257 logits; %s)", d.Seconds(), gpt.BLAS), model: name}, nil
}

// forwardTime is the time of a ForwardAll of GPT-2 small over 1,024 positions, all logits,
// measured once per run.
func (r *reproducer) forwardTime() (time.Duration, error) {
	if r.forward1024 > 0 {
		return r.forward1024, nil
	}
	m, _, err := r.timingModel()
	if err != nil {
		return 0, err
	}
	ids := [][]int{tokens(1024, m.Config.VocabSize)}
	// The first call also allocates the buffers; when it is quick enough, time a second one
	// and keep the faster (on a loaded machine the second run is not worth its time).
	var best time.Duration
	for i := 0; i < 2; i++ {
		t0 := time.Now()
		if _, err := m.ForwardAll(ids); err != nil {
			return 0, err
		}
		d := time.Since(t0)
		if best == 0 || d < best {
			best = d
		}
		if d > 10*time.Second {
			break
		}
	}
	r.forward1024 = best
	return best, nil
}

// ---- Generation is a loop

func rowPositions(r *reproducer) (rowResult, error) {
	// The count the Generator makes as it runs, on a model small enough to run 256 steps of
	// both loops in no time, against gpt.Positions on paper.
	counts := viz.CountPositions(11, everyN(8, 512))
	// The generator's own tally over 11 + 256 positions needs a block of at least 267: a
	// Tiny config with a longer block runs both loops in a moment.
	cfg := gpt.Tiny
	cfg.BlockSize = 512
	mm, err := gpt.New(cfg)
	if err != nil {
		return rowResult{}, err
	}
	mm.Init(1, true)
	prompt := tokens(11, cfg.VocabSize)
	var measured [2]int
	for i, cached := range []bool{false, true} {
		g, err := gpt.NewGenerator(mm, prompt, gpt.Greedy, cached)
		if err != nil {
			return rowResult{}, err
		}
		if _, err := g.Steps(256); err != nil {
			return rowResult{}, err
		}
		measured[i] = g.Positions()
	}
	un, ca := gpt.Positions(11, 256)
	if measured[0] != un || measured[1] != ca {
		return rowResult{}, fmt.Errorf("the generator pushed %d / %d positions, gpt.Positions says %d / %d", measured[0], measured[1], un, ca)
	}
	r.counts = counts
	if err := r.save(viz.Positions(counts, r.timings), "positions"); err != nil {
		return rowResult{}, err
	}
	if err := r.saveHTML(viz.SliderPositions(viz.CountPositions(11, everyN(16, 512))), "positions_slider"); err != nil {
		return rowResult{}, err
	}
	return rowResult{ours: fmt.Sprintf("%s without a cache, %s with one (counted by the Generator and by gpt.Positions)",
		gpt.Commas(un), gpt.Commas(ca)), model: "Generator tally (any model), gpt.Positions", figures: []string{"positions"}, pages: []string{"positions_slider"}}, nil
}

func everyN(step, last int) []int {
	var xs []int
	for n := step; n <= last; n += step {
		xs = append(xs, n)
	}
	return xs
}

func rowTimeRatio(r *reproducer) (rowResult, error) {
	m, name, err := r.timingModel()
	if err != nil {
		return rowResult{}, err
	}
	news := []int{64, 256, 512}
	last := news[len(news)-1]
	prompt := tokens(11, m.Config.VocabSize)

	// Cached: one greedy run of 512 steps; the time to the 64th and 256th token is the time
	// a 64- or 256-token run takes.
	g, err := gpt.NewGenerator(m, prompt, gpt.Greedy, true)
	if err != nil {
		return rowResult{}, err
	}
	var cached []time.Duration // cumulative, per step
	var sum time.Duration
	for i := 0; i < last; i++ {
		st, err := g.Step()
		if err != nil {
			return rowResult{}, err
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
			return rowResult{}, err
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
	for _, n := range news {
		t := viz.DecodeTiming{NewTokens: n, Cached: cached[n-1], Uncached: uncached[n-1]}
		r.timings = append(r.timings, t)
		un, ca := gpt.Positions(11, n)
		parts = append(parts, fmt.Sprintf("%d: positions %s, time %s (%.1f s vs %.1f s)", n,
			viz.Ratio(float64(un)/float64(ca)), viz.Ratio(t.Ratio()), t.Uncached.Seconds(), t.Cached.Seconds()))
	}
	counts := r.counts
	if counts == nil {
		counts = viz.CountPositions(11, everyN(8, 512))
	}
	if err := r.save(viz.Positions(counts, r.timings), "positions"); err != nil {
		return rowResult{}, err
	}
	sampled := "every step"
	if k > 1 {
		sampled = fmt.Sprintf("uncached loop timed on every %dth step and counted for the steps between", k)
	}
	return rowResult{ours: strings.Join(parts, "; ") + " (" + sampled + ")", model: name, figures: []string{"positions"}}, nil
}

func rowKVCache(r *reproducer) (rowResult, error) {
	// Measured: the allocation of a GPT-2 small cache (its parameters are not needed).
	m, err := gpt.New(gpt.Small)
	if err != nil {
		return rowResult{}, err
	}
	c := m.NewCache()
	small := gpt.CacheBytes(gpt.Small, 1024, 4)
	if c.Bytes() != small {
		return rowResult{}, fmt.Errorf("a GPT-2 small cache allocates %d bytes, 2·L·T·C·4 = %d", c.Bytes(), small)
	}
	budget := gpt.Budget(10, 1024)
	var xl gpt.BudgetRow
	for _, row := range budget.Rows {
		if row.Name == "xl" && row.Format == "bf16" {
			xl = row
		}
	}
	if err := r.save(viz.CacheBudget(budget, 16), "budget"); err != nil {
		return rowResult{}, err
	}
	if err := r.saveHTML(viz.SliderBudget(budget, 16), "budget_slider"); err != nil {
		return rowResult{}, err
	}
	return rowResult{ours: fmt.Sprintf("%s bytes per position for small fp32; %s at 1,024 (allocated: %s); XL bf16 %s per sequence vs %s of weights (%.1f sequences)",
		gpt.Commas(gpt.CacheBytes(gpt.Small, 1, 4)), gpt.MB(small), gpt.MB(c.Bytes()), gpt.MB(xl.PerSequence), gpt.MB(xl.Weights), xl.Equal),
		model: "arithmetic + GPT-2 small cache allocation", figures: []string{"budget"}, pages: []string{"budget_slider"}}, nil
}

func rowDecode1023(r *reproducer) (rowResult, error) {
	m, name, err := r.timingModel()
	if err != nil {
		return rowResult{}, err
	}
	g, err := gpt.NewGenerator(m, []int{50256}, gpt.Greedy, true)
	if err != nil {
		return rowResult{}, err
	}
	t0 := time.Now()
	for i := 0; i < 1023; i++ {
		if _, err := g.Step(); err != nil {
			return rowResult{}, err
		}
		r.note("decode-1023: %d of 1,023 tokens", i+1)
	}
	d := time.Since(t0)
	fwd, err := r.forwardTime()
	if err != nil {
		return rowResult{}, err
	}
	return rowResult{ours: fmt.Sprintf("%.1f s (%.1f tokens/s), %.0f× the %.2f s forward over 1,024 positions",
		d.Seconds(), 1023/d.Seconds(), d.Seconds()/fwd.Seconds(), fwd.Seconds()), model: name}, nil
}

func rowCrop(r *reproducer) (rowResult, error) {
	m, err := gpt.New(gpt.Tiny)
	if err != nil {
		return rowResult{}, err
	}
	m.Init(1, true)
	steps := 3 * gpt.Tiny.BlockSize
	c, err := gpt.CompareCaching(m, tokens(11, gpt.Tiny.VocabSize), steps)
	if err != nil {
		return rowResult{}, err
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
	return rowResult{ours: fmt.Sprintf("%d steps through a block of %d, %d crops re-prefilled: %s, max |Δlogit| %.2g",
		steps, gpt.Tiny.BlockSize, crops, same, c.MaxDiff), model: "gpt.Tiny (block 64), random init (seed 1)"}, nil
}

// ---- Same weights, different bugs

func rowCachedVsUncached(r *reproducer) (rowResult, error) {
	m, name, err := r.trained()
	if err != nil {
		return rowResult{}, err
	}
	c, err := gpt.CompareCaching(m, r.promptFor(m), 200)
	if err != nil {
		return rowResult{}, err
	}
	if err := r.save(viz.CachingDifference(c), "caching"); err != nil {
		return rowResult{}, err
	}
	same := "same tokens"
	if c.FirstDiverge > 0 {
		same = fmt.Sprintf("tokens differ from step %d", c.FirstDiverge)
	}
	return rowResult{ours: fmt.Sprintf("%s; logits differ by up to %.2g, %.2g with the mean shift removed; top-2 gap moved ≤ %.2g; narrowest gap %.3g",
		same, c.MaxDiff, c.MaxDiffShifted, c.MaxGapChange, c.NarrowestGap), model: name, figures: []string{"caching"}}, nil
}

func rowBF16(r *reproducer) (rowResult, error) {
	m, name, err := r.trained()
	if err != nil {
		return rowResult{}, err
	}
	c, err := gpt.ComparePrecision(m, m.WithPrecision(gpt.BF16), r.promptFor(m), 40)
	if err != nil {
		return rowResult{}, err
	}
	if err := r.save(viz.PrecisionDivergence(c, r.decoder), "precision"); err != nil {
		return rowResult{}, err
	}
	split := "never split in 40 tokens"
	if c.Split > 0 {
		same, after := 0, c.Steps[c.Split:]
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
	return rowResult{ours: fmt.Sprintf("%s; max |Δlogit| before the split %.3g", split, c.MaxDiff), model: name, figures: []string{"precision"}}, nil
}

func rowBatch(r *reproducer) (rowResult, error) {
	m, name, err := r.trained()
	if err != nil {
		return rowResult{}, err
	}
	c, err := gpt.CompareBatch(m, r.promptFor(m), 8)
	if err != nil {
		return rowResult{}, err
	}
	kept := "tokens kept"
	if !c.TokensEqual {
		kept = "tokens changed"
	}
	return rowResult{ours: fmt.Sprintf("%s, logits moved up to %.2g vs the single run", kept, c.MaxDiff), model: name}, nil
}

func rowTemperature0(r *reproducer) (rowResult, error) {
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
		return rowResult{}, err
	}
	c, err := s.Sample(logits)
	if err != nil {
		return rowResult{}, err
	}
	best := 0
	for i, l := range logits {
		if l > logits[best] {
			best = i
		}
	}
	if c.ID != best {
		return rowResult{}, fmt.Errorf("temperature 0 picked %d, the argmax is %d", c.ID, best)
	}
	return rowResult{ours: fmt.Sprintf("logits/0 gives %s of %s non-finite values (softmax → NaN); our Policy{Temperature: 0} picks the argmax (id %d, p %g)",
		gpt.Commas(inf), gpt.Commas(len(logits)), c.ID, c.Prob), model: "gpt.Sampler"}, nil
}

func rowRepeatability(r *reproducer) (rowResult, error) {
	m, name, err := r.trained()
	if err != nil {
		return rowResult{}, err
	}
	p := gpt.Policy{Temperature: 1, Seed: 1337}
	var runs [2][]int
	for i := range runs {
		g, err := gpt.NewGenerator(m, r.promptFor(m), p, true)
		if err != nil {
			return rowResult{}, err
		}
		if _, err := g.Steps(40); err != nil {
			return rowResult{}, err
		}
		runs[i] = g.Generated()
	}
	same := 0
	for i := range runs[0] {
		if runs[0][i] == runs[1][i] {
			same++
		}
	}
	return rowResult{ours: fmt.Sprintf("%d of %d sampled tokens the same in two runs [%s]", same, len(runs[0]), p), model: name}, nil
}

// ---- Sampling is a policy on top (OpenAI's weights)

const (
	capitalPrompt = "The capital of France is"
	numpyPrompt   = "import numpy as"
)

// openAILogits are OpenAI GPT-2's next-token logits (V) after prompt, computed once per run.
func (r *reproducer) openAILogits(prompt string) ([]float32, string, error) {
	m := r.openAI()
	if m == nil {
		return nil, "", errNeedsWeights
	}
	if l, ok := r.logits[prompt]; ok {
		return l, r.openAIName(), nil
	}
	l, err := m.NextLogits(r.gpt2.Encode(prompt))
	if err != nil {
		return nil, "", err
	}
	if r.logits == nil {
		r.logits = map[string][]float32{}
	}
	r.logits[prompt] = l
	return l, r.openAIName(), nil
}

func (r *reproducer) openAIName() string { return "OpenAI GPT-2 small (" + r.openaiPath + ")" }

// rankOf is the 1-based rank of id among logits, and its probability at T = 1.
func rankOf(logits []float32, id int) (int, float64) {
	rank := 1
	for _, l := range logits {
		if l > logits[id] {
			rank++
		}
	}
	cs, _ := gpt.Ranked(logits, 1, rank)
	return rank, cs[len(cs)-1].Prob
}

func rowCapital(r *reproducer) (rowResult, error) {
	l, model, err := r.openAILogits(capitalPrompt)
	if err != nil {
		return rowResult{}, err
	}
	top, err := gpt.Ranked(l, 1, 10)
	if err != nil {
		return rowResult{}, err
	}
	paris := r.gpt2.Encode(" Paris")
	rank, p := rankOf(l, paris[0])
	n, _ := gpt.NucleusSize(l, 1, 0.9)
	h, _ := gpt.Entropy(l, 1)
	if err := r.save(viz.TopTokens(top, r.gpt2, fmt.Sprintf("next token after %q", capitalPrompt)), "topn"); err != nil {
		return rowResult{}, err
	}
	return rowResult{ours: fmt.Sprintf("%q %.1f%%, \" Paris\" %s at %.1f%%; %s tokens; %.1f bits",
		r.gpt2.Decode([]int{top[0].ID}), 100*top[0].Prob, ordinal(rank), 100*p, gpt.Commas(n), h),
		model: model, figures: []string{"topn"}}, nil
}

func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}

func rowNumpy(r *reproducer) (rowResult, error) {
	l, model, err := r.openAILogits(numpyPrompt)
	if err != nil {
		return rowResult{}, err
	}
	top, err := gpt.Ranked(l, 1, 1)
	if err != nil {
		return rowResult{}, err
	}
	n, _ := gpt.NucleusSize(l, 1, 0.9)
	h, _ := gpt.Entropy(l, 1)
	return rowResult{ours: fmt.Sprintf("%q %.0f%%; %d tokens; %.1f bits", r.gpt2.Decode([]int{top[0].ID}), 100*top[0].Prob, n, h),
		model: model}, nil
}

// capitalAndNumpy returns OpenAI's GPT-2 next-token logits after the study's two prompts: a
// wide distribution ("The capital of France is") and a narrow one ("import numpy as").
func (r *reproducer) capitalAndNumpy() (capital, numpy []float32, model string, err error) {
	capital, model, err = r.openAILogits(capitalPrompt)
	if err != nil {
		return nil, nil, "", err
	}
	numpy, _, err = r.openAILogits(numpyPrompt)
	return capital, numpy, model, err
}

func rowTopK200(r *reproducer) (rowResult, error) {
	lc, ln, model, err := r.capitalAndNumpy()
	if err != nil {
		return rowResult{}, err
	}
	capital, _ := gpt.TopKMass(lc, 0.8, 200)
	numpy200, _ := gpt.TopKMass(ln, 0.8, 200)
	numpy1, _ := gpt.TopKMass(ln, 0.8, 1)
	return rowResult{ours: fmt.Sprintf("holds %.0f%% after the capital prompt; after numpy keeps 199 options sharing %.1f%%",
		100*capital, 100*(numpy200-numpy1)), model: model}, nil
}

func rowTopP(r *reproducer) (rowResult, error) {
	lc, ln, model, err := r.capitalAndNumpy()
	if err != nil {
		return rowResult{}, err
	}
	nc, _ := gpt.NucleusSize(lc, 0.8, 0.9)
	nn, _ := gpt.NucleusSize(ln, 0.8, 0.9)
	var sweeps []viz.TemperatureSweep
	for _, p := range []struct {
		prompt string
		logits []float32
	}{{capitalPrompt, lc}, {numpyPrompt, ln}} {
		s, err := viz.SweepTemperature(p.prompt, p.logits, 0.9, temperatures())
		if err != nil {
			return rowResult{}, err
		}
		sweeps = append(sweeps, s)
	}
	if err := r.save(viz.TopP(sweeps), "nucleus"); err != nil {
		return rowResult{}, err
	}
	if err := r.saveHTML(viz.SliderTemperature(sweeps), "nucleus_slider"); err != nil {
		return rowResult{}, err
	}
	return rowResult{ours: fmt.Sprintf("%s tokens for capital, %s for numpy", gpt.Commas(nc), gpt.Commas(nn)),
		model: model, figures: []string{"nucleus"}, pages: []string{"nucleus_slider"}}, nil
}

// temperatures are 0.1, 0.2, … 2.0, the slider's stops.
func temperatures() []float64 {
	var ts []float64
	for i := 1; i <= 20; i++ {
		ts = append(ts, float64(i)/10)
	}
	return ts
}

func rowGreedyRepeats(r *reproducer) (rowResult, error) {
	m := r.openAI()
	if m == nil {
		return rowResult{}, errNeedsWeights
	}
	if _, _, err := r.openAILogits(capitalPrompt); err != nil { // loads the tokenizer
		return rowResult{}, err
	}
	g, err := gpt.NewGenerator(m, r.gpt2.Encode(capitalPrompt), gpt.Greedy, true)
	if err != nil {
		return rowResult{}, err
	}
	if _, err := g.Steps(200); err != nil {
		return rowResult{}, err
	}
	at, span := firstRepeat(g.Generated(), 8)
	if at < 0 {
		return rowResult{ours: "no span of 8 tokens repeats in 200 greedy tokens", model: r.openAIName()}, nil
	}
	return rowResult{ours: fmt.Sprintf("from token %d it repeats the 8-token span it generated at token %d: %q",
		at, at-span, r.gpt2.Decode(g.Generated()[at:at+8])), model: r.openAIName()}, nil
}

// firstRepeat finds the first position at whose n tokens occurred before, and how far back;
// -1 when no n-token span repeats.
func firstRepeat(ids []int, n int) (at, back int) {
	seen := map[string]int{}
	for i := 0; i+n <= len(ids); i++ {
		key := fmt.Sprint(ids[i : i+n])
		if j, ok := seen[key]; ok {
			return i, i - j
		}
		seen[key] = i
	}
	return -1, 0
}

// ---- models

// openAI loads OpenAI's GPT-2 from --weights or gpt.Find, once; nil when there is none.
func (r *reproducer) openAI() *gpt.Model {
	if r.openaiTried {
		return r.openai
	}
	r.openaiTried = true
	path := r.weights
	if path == "" {
		p, err := gpt.Find()
		if err != nil {
			r.openaiErr = err
			return nil
		}
		path = p
	}
	m, tok, err := gpt.Open(path)
	if err != nil {
		r.openaiErr = err
		return nil
	}
	r.openai, r.gpt2, r.openaiPath = m, tok, path
	return m
}

// trained is the model for rows about a trained model: OpenAI's GPT-2 when found, else the
// model shipped in testdata/.
func (r *reproducer) trained() (*gpt.Model, string, error) {
	if m := r.openAI(); m != nil {
		r.decoder = r.gpt2
		return m, r.openAIName(), nil
	}
	if r.shipped == nil && r.shippedErr == nil {
		path, err := gpt.ShippedModelPath()
		if err != nil {
			r.shippedErr = fmt.Errorf("%w: %v", errNeedsTrained, err)
		} else if m, tok, err := gpt.Open(path); err != nil {
			r.shippedErr = fmt.Errorf("the shipped model: %w", err) // there is one, and it is broken
		} else {
			r.shipped, r.shippedPath = m, path
			r.decoder, r.encoder = tok, tok
		}
	}
	if r.shipped == nil {
		return nil, "", r.shippedErr
	}
	return r.shipped, "shipped model " + r.shippedPath, nil
}

// timingModel is the model the timing rows run: OpenAI's GPT-2 small when found, else GPT-2
// small at init (the time of a forward does not depend on the weights).
func (r *reproducer) timingModel() (*gpt.Model, string, error) {
	if m := r.openAI(); m != nil {
		return m, r.openAIName(), nil
	}
	m, err := r.smallModel()
	return m, smallRandom, err
}

// goPrompt starts the trained-model rows on the shipped model, trained on Go source.
const goPrompt = "func main() {\n\tfmt.Println("

// promptFor is the prompt the trained-model rows start from: the study's capital prompt on
// OpenAI's GPT-2, a line of Go on the shipped model, else 11 fixed token ids.
func (r *reproducer) promptFor(m *gpt.Model) []int {
	switch {
	case m == r.openai && r.gpt2 != nil:
		return r.gpt2.Encode(capitalPrompt)
	case m == r.shipped && r.encoder != nil:
		return r.encoder.Encode(goPrompt)
	}
	return tokens(11, m.Config.VocabSize)
}

func rowNanoGPTDefaults(r *reproducer) (rowResult, error) {
	return rowResult{ours: "gpt.NanoGPT = " + gpt.NanoGPT.String(), model: "gpt.Policy"}, nil
}

// ---- Figures of the notebooks

// rowLossCurve trains a byte-level gpt.Tiny on the Go source of the strings package for a
// few hundred steps and draws its loss curve: the figure the training notebook updates live.
func rowLossCurve(r *reproducer) (rowResult, error) {
	dir := filepath.Join(gpt.GoSourceDir(), "strings")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		return rowResult{}, fmt.Errorf("no Go source in %s: %v", dir, err)
	}
	var text []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return rowResult{}, err
		}
		text = append(text, b...)
	}
	ids := make([]int32, len(text))
	for i, b := range text {
		ids[i] = int32(b)
	}
	cut := len(ids) * 9 / 10
	cfg := gpt.Tiny
	cfg.VocabSize = 256 // bytes
	m, err := gpt.New(cfg)
	if err != nil {
		return rowResult{}, err
	}
	m.Init(1, true)
	const steps = 300
	t, err := gpt.NewTrainer(m, ids[:cut], ids[cut:], gpt.TrainOptions{Batch: 8, SeqLen: 64, Steps: steps, LR: 3e-3,
		Seed: 1, EvalEvery: 50, EvalBatches: 4})
	if err != nil {
		return rowResult{}, err
	}
	for i := 0; i < steps; i++ {
		res, err := t.Step()
		if err != nil {
			return rowResult{}, err
		}
		r.note("loss-curve: step %d of %d, loss %.2f", res.Step, steps, res.Loss)
		if res.Step%50 == 0 {
			v, err := t.Evaluate()
			if err != nil {
				return rowResult{}, err
			}
			t.History[len(t.History)-1].ValLoss = v
		}
	}
	if err := r.save(viz.LossCurve(t.History, cfg.VocabSize), "loss"); err != nil {
		return rowResult{}, err
	}
	first, last := t.History[0], t.History[len(t.History)-1]
	return rowResult{ours: fmt.Sprintf("loss %.2f → %.2f in %d steps (validation %.2f; ln 256 = %.2f)",
		first.Loss, last.Loss, steps, last.ValLoss, math.Log(256)),
		model: fmt.Sprintf("byte-level gpt.Tiny, %s bytes of Go's strings package, seed 1", gpt.Commas(len(text))), figures: []string{"loss"}}, nil
}

// rowAttention traces 16 tokens through the trained model (or GPT-2 small at init when there
// is none), once per query position, and draws layer L/2 head 0 and every head of that layer.
func rowAttention(r *reproducer) (rowResult, error) {
	m, name, err := r.trained()
	if errors.Is(err, errNeedsTrained) {
		if m, err = r.smallModel(); err != nil {
			return rowResult{}, err
		}
		name = smallRandom
	}
	if err != nil {
		return rowResult{}, err
	}
	ids := r.promptFor(m)
	for len(ids) < 16 {
		ids = append(ids, ids...)
	}
	ids = ids[:16]
	var traces []*gpt.Trace
	for q := range ids {
		tr, err := m.Trace(ids, gpt.TraceOptions{Position: q})
		if err != nil {
			return rowResult{}, err
		}
		traces = append(traces, tr)
	}
	layer := m.Config.Layers / 2
	w, err := viz.AttentionMatrix(traces, layer, 0)
	if err != nil {
		return rowResult{}, err
	}
	var labels []string
	for _, id := range ids {
		if r.decoder != nil {
			labels = append(labels, r.decoder.Decode([]int{id}))
		} else {
			labels = append(labels, fmt.Sprint(id))
		}
	}
	p, err := viz.AttentionMap(w, labels, layer, 0)
	if err != nil {
		return rowResult{}, err
	}
	if err := r.save(p, "attention"); err != nil {
		return rowResult{}, err
	}
	heads, err := viz.AttentionHeads(traces[len(traces)-1], layer, r.decoder)
	if err != nil {
		return rowResult{}, err
	}
	if err := r.save(heads, "attention_heads"); err != nil {
		return rowResult{}, err
	}
	// How sharp is that head: the mean over queries of the largest weight.
	sharp := 0.0
	for q := range ids {
		best := float32(0)
		for _, v := range w[q*len(ids) : q*len(ids)+q+1] {
			best = max(best, v)
		}
		sharp += float64(best) / float64(len(ids))
	}
	return rowResult{ours: fmt.Sprintf("16 positions, layer %d head 0: mean largest weight %.2f", layer, sharp),
		model: name, figures: []string{"attention", "attention_heads"}}, nil
}

// rowSamplingFigures draws the sampling figures on the trained model the run has: the study's
// prompts on OpenAI's GPT-2, lines of Go on the shipped model.
func rowSamplingFigures(r *reproducer) (rowResult, error) {
	m, name, err := r.trained()
	if err != nil {
		return rowResult{}, err
	}
	prompts := []string{capitalPrompt, numpyPrompt}
	var enc func(string) []int
	switch {
	case m == r.openai:
		enc = r.gpt2.Encode
	case r.encoder != nil:
		prompts = []string{"func main() {\n\t", "import (\n\t\"", "for i := 0; i <"}
		enc = r.encoder.Encode
	default:
		return rowResult{}, fmt.Errorf("the shipped model has no tokenizer beside it to encode prompts")
	}
	var sweeps []viz.TemperatureSweep
	var parts []string
	for i, prompt := range prompts {
		l, err := m.NextLogits(enc(prompt))
		if err != nil {
			return rowResult{}, err
		}
		s, err := viz.SweepTemperature(prompt, l, 0.9, temperatures())
		if err != nil {
			return rowResult{}, err
		}
		sweeps = append(sweeps, s)
		at1 := s.At(1)
		parts = append(parts, fmt.Sprintf("%q: %d tokens hold 90%% at T=1, %.1f bits", prompt, s.NucleusSizes[at1], s.EntropyBits))
		if i == 0 {
			top, err := gpt.Ranked(l, 1, 10)
			if err != nil {
				return rowResult{}, err
			}
			if err := r.save(viz.TopTokens(top, r.decoder, fmt.Sprintf("next token after %q", prompt)), "next_token"); err != nil {
				return rowResult{}, err
			}
		}
	}
	if err := r.save(viz.TopP(sweeps), "sampling"); err != nil {
		return rowResult{}, err
	}
	if err := r.saveHTML(viz.SliderTemperature(sweeps), "sampling_slider"); err != nil {
		return rowResult{}, err
	}
	return rowResult{ours: strings.Join(parts, "; "), model: name,
		figures: []string{"next_token", "sampling"}, pages: []string{"sampling_slider"}}, nil
}
