package study

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/study/reference"
	"github.com/gptnotes/gptnotes/tokenizer"
	"github.com/gptnotes/gptnotes/viz"
)

// The rows of the study, in its order (doc.go). Each row function measures with the gpt
// package and writes its figures with viz; nothing here is a stored answer. The study's own
// figures come from package reference.

// residualStudy is the residual row's study figure, and PyTorch's on this machine.
func residualStudy() string {
	g, pt := reference.ResidualGrowth, reference.PyTorch.ResidualGrowth
	return fmt.Sprintf("scaled ≈%g× at %d blocks, ≈%g× at %d; plain 0.02 ≈%g× at %d, ≈%g× at %d (PyTorch here: %.2f, %.2f, %.2f, %.2f)",
		g[0].Ratio, g[0].Layers, g[1].Ratio, g[1].Layers, g[2].Ratio, g[2].Layers, g[3].Ratio, g[3].Layers, pt[0], pt[1], pt[2], pt[3])
}

// plain formats x without an exponent: 0.00005, not 5e-05.
func plain(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// Rows are the study's measurements, in the order of the package documentation.
func Rows() []Row {
	pt := reference.PyTorch
	sp, st := reference.DecodePositionRatios, reference.DecodeTimeRatios
	capital, numpy := reference.Nucleus[capitalPrompt], reference.Nucleus["import numpy as"]
	return []Row{
		{Name: "config", Figure: "GPT-2 small config",
			Study:   "1,024 positions, 12 blocks, 12 heads, width 768, vocab 50,257 (nanoGPT pads to 50,304)",
			measure: rowConfig},
		{Name: "params", Figure: "parameters, tied token table / lm_head",
			Study: "124,439,808 (≈124M)", measure: rowParams},
		{Name: "untied", Figure: "parameters if the output layer were untied",
			Study: "163,037,184 (≈163M)", measure: rowUntied},
		{Name: "token-share", Figure: "share of the token table in the tied model",
			Study: "≈31%", measure: rowTokenShare},
		{Name: "wpe", Figure: "learned position table; forwarding 1,100 positions",
			Study: `wpe shape [1024, 768]; "Cannot forward sequence of length 1100, block size is only 1024"`, measure: rowWpe},
		{Name: "init", Figure: "init: matrices and tables N(0, 0.02), residual writes N(0, 0.02/√(2L)), biases 0, LayerNorm 1/0",
			Study: "std 0.02; attn.c_proj and mlp.c_proj 0.02/√24 = 0.00408", measure: rowInit},
		{Name: "residual", Figure: "residual-stream norm growth at init, width 768, input of block 1 → output of the last, 64 random tokens, 3 seeds",
			Study:   residualStudy(),
			measure: rowResidual},
		{Name: "tokenizer", Figure: "GPT-2's byte-level BPE: strings round-trip, no unknown token; GPT-2's ids for a sample",
			Study: "byte-level BPE, every string encodes, no unknown token", measure: rowTokenizer},
		{Name: "forward-targets", Figure: "forward with targets over 92 positions",
			Study: "logits [1, 92, 50257] and one loss ≈ ln 50257 ≈ 10.8 untrained", measure: rowForwardTargets},
		{Name: "forward-last", Figure: "forward without targets",
			Study: "logits for the last position only", measure: rowForwardLast},
		{Name: "forward-1024", Figure: "one forward over 1,024 positions, batch 1, fp32",
			Study: fmt.Sprintf("%.2f s on the study's laptop (PyTorch on this machine: %.2f s fp32)", reference.Forward1024Seconds, pt.Forward1024Seconds), measure: rowForward1024},
		{Name: "positions", Figure: "positions pushed through the stack, 11-token prompt, 256 new tokens",
			Study: "35,456 without a cache, 266 with one", measure: rowPositions},
		{Name: "time-ratio", Figure: "64 / 256 / 512 new tokens: uncached ÷ cached, positions and time",
			Study: fmt.Sprintf("positions %g× / %g× / %g×, time %.1f× / %.1f× / %.1f× (PyTorch here: %.2f× / %.2f× / %.2f×)",
				sp[0], sp[1], sp[2], st[0], st[1], st[2], pt.TimeRatios[0], pt.TimeRatios[1], pt.TimeRatios[2]), measure: rowTimeRatio},
		{Name: "kv-cache", Figure: "KV cache size, 2·L·T·d numbers",
			Study: fmt.Sprintf("≈74 kB per position for GPT-2 small fp32; 75 MB at 1,024; XL bf16 315 MB per sequence vs %g GB of weights (≈%d sequences)",
				reference.XLWeightsGB, reference.XLSequences),
			measure: rowKVCache},
		{Name: "decode-1023", Figure: "1,023 tokens with the cache, and the forward over the same length",
			Study: fmt.Sprintf("%.1f s, ≈40× the forward (PyTorch here: %.1f s, forward %.2f s)", reference.Decode1023Seconds, pt.Decode1023Seconds, pt.Forward1024Seconds), measure: rowDecode1023},
		{Name: "crop", Figure: "past the block size: crop and re-prefill, cached vs uncached",
			Study: "cropping makes the whole cache stale; a cached loop must recompute", measure: rowCrop},
		{Name: "cached-vs-uncached", Figure: "cached vs uncached greedy, 200 steps", Kind: TrainedModel,
			Study: fmt.Sprintf("same text; logits differ by up to %s, almost all a uniform shift; top-2 gap moved ≤ %s; narrowest gap %s",
				plain(reference.CachingMaxDiff), plain(reference.CachingGapMoved), plain(reference.CachingNarrowest)),
			measure: rowCachedVsUncached},
		{Name: "why", Figure: "why they differ", Kind: Fact,
			Study: "after the prompt every matmul sees one row instead of T: other kernels, other summation order"},
		{Name: "bf16", Figure: "bf16 weights vs fp32, greedy", Kind: TrainedModel,
			Study:   `split at the third token (" were not working." vs " were not being run on the same system"), never rejoin`,
			measure: rowBF16},
		{Name: "batch", Figure: "the same prompt 8 times in one batch", Kind: TrainedModel,
			Study: "tokens kept, logits moved up to 0.005 vs the single run", measure: rowBatch},
		{Name: "temperature-0", Figure: "temperature 0",
			Study: "nanoGPT divides by zero → inf → NaN; most APIs treat 0 as argmax", measure: rowTemperature0},
		{Name: "repeatability", Figure: "same seed, same machine", Kind: TrainedModel,
			Study: "the same 40 sampled tokens", measure: rowRepeatability},
		{Name: "capital", Figure: `"The capital of France is": top candidates, 90% set at T=1, entropy`, Kind: OpenAIOnly,
			Study: fmt.Sprintf(`" the" 8.5%%, " Paris" 5th at 3.2%%; %s tokens; 8.7 bits`, gpt.Commas(int(capital[0][1]))), measure: rowCapital},
		{Name: "numpy", Figure: `"import numpy as": top candidate, 90% set, entropy`, Kind: OpenAIOnly,
			Study: `" np" 85%; 3 tokens; 1.5 bits`, measure: rowNumpy},
		{Name: "top-k-200", Figure: "top-k 200 at T=0.8", Kind: OpenAIOnly,
			Study: "holds 89% after the capital prompt; after numpy keeps 199 options sharing under 5%", measure: rowTopK200},
		{Name: "top-p-0.9", Figure: "top-p 0.9 at T=0.8", Kind: OpenAIOnly,
			Study: fmt.Sprintf("%g tokens for capital, %g for numpy", capital[1][1], numpy[1][1]), measure: rowTopP},
		{Name: "greedy-repeats", Figure: "greedy GPT-2 small, 200 tokens", Kind: OpenAIOnly,
			Study: "repeats its own sentence", measure: rowGreedyRepeats},
		{Name: "nanogpt-defaults", Figure: "nanoGPT sample.py defaults",
			Study: "temperature 0.8, top-k 200, no top-p", measure: rowNanoGPTDefaults},
		{Name: "attention", Figure: "attention of one layer and head, and of every head of that layer (notebook figure, not a study row)",
			Study: "—", measure: rowAttention},
		{Name: "sampling-figures", Figure: "next-token candidates and top-p/top-k against temperature on the model used (notebook figure)",
			Study: "—", Kind: TrainedModel, measure: rowSamplingFigures},
		{Name: "loss-curve", Figure: "training loss curve (notebook figure, not a study row)",
			Study: "—", measure: rowLossCurve},
	}
}

// ---- GPT-2's configuration and its five decisions

func rowConfig(r *Run) (Result, error) {
	c := gpt.Small
	padded := (c.VocabSize + 63) / 64 * 64
	return Result{Ours: fmt.Sprintf("%s positions, %d blocks, %d heads, width %d, vocab %s (padded to a multiple of 64: %s)",
		gpt.Commas(c.BlockSize), c.Layers, c.Heads, c.Channels, gpt.Commas(c.VocabSize), gpt.Commas(padded)),
		Model: "gpt.Small"}, nil
}

func rowParams(r *Run) (Result, error) {
	return Result{Ours: gpt.Commas(gpt.Count(gpt.Small).Tied), Model: "gpt.Count(gpt.Small)"}, nil
}

func rowUntied(r *Run) (Result, error) {
	return Result{Ours: gpt.Commas(gpt.Count(gpt.Small).Untied), Model: "gpt.Count(gpt.Small)"}, nil
}

func rowTokenShare(r *Run) (Result, error) {
	c := gpt.Count(gpt.Small)
	return Result{Ours: fmt.Sprintf("%.1f%% (%s of %s)", 100*c.TokenShare, gpt.Commas(c.TokenTable), gpt.Commas(c.Tied)),
		Model: "gpt.Count(gpt.Small)"}, nil
}

func rowWpe(r *Run) (Result, error) {
	m, err := gpt.New(gpt.Small) // zeroed: the shape check comes before any arithmetic
	if err != nil {
		return Result{}, err
	}
	wpe, ok := m.Params.Tensor("wpe.weight")
	if !ok {
		return Result{}, fmt.Errorf("no wpe.weight")
	}
	_, err = m.Forward([][]int{make([]int, 1100)}, nil)
	if err == nil {
		return Result{}, fmt.Errorf("forwarding 1,100 positions did not fail")
	}
	return Result{Ours: fmt.Sprintf("wpe shape %v; %q", wpe.Shape, err.Error()), Model: "GPT-2 small, zeroed"}, nil
}

func rowInit(r *Run) (Result, error) {
	m, err := r.smallModel()
	if err != nil {
		return Result{}, err
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
	return Result{Ours: fmt.Sprintf("matrices and tables std %.5f (%s numbers), c_proj std %.5f (%s numbers), max |bias| %g, max |LayerNorm weight − 1| %g",
		matrix.std(), gpt.Commas(matrix.n), resid.std(), gpt.Commas(resid.n), biasMax, lnOff), Model: smallRandom}, nil
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

func rowResidual(r *Run) (Result, error) {
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
				return Result{}, errs[k]
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
		return Result{}, err
	}
	return Result{Ours: strings.Join(parts, ", ") + " (mean of seeds 1–3)",
		Model: "random init, width 768, 12 heads, vocab 1,024, gpt.ResidualGrowth", Figures: []string{"residual"}}, nil
}

// tokenizerSamples are strings a byte-level BPE must round-trip: ASCII, accents, CJK, emoji
// split over several tokens, a control character, and bytes that are not UTF-8.
var tokenizerSamples = []string{
	"Hello world", "The capital of France is", "naïve café", "数据科学", "gophers 🐹🚀",
	"tab\tand\nnewline", "\x00\x01", "\xff\xfe not UTF-8", "  leading and trailing spaces  ",
}

// tokenizerSample is GPT-2's own tokenization of a sample, known from OpenAI's tiktoken
// (r50k_base) and Hugging Face's gpt2 tokenizer.
var tokenizerSample = struct {
	text string
	ids  []int
}{"Hello world", []int{15496, 995}}

func rowTokenizer(r *Run) (Result, error) {
	tok, err := tokenizer.GPT2()
	if err != nil {
		return Result{}, err
	}
	tokens := 0
	for _, s := range tokenizerSamples {
		ids := tok.Encode(s)
		tokens += len(ids)
		for _, id := range ids {
			if id < 0 || id >= tok.VocabSize() {
				return Result{}, fmt.Errorf("%q encodes to id %d, outside the vocabulary of %d", s, id, tok.VocabSize())
			}
		}
		if back, err := tok.DecodeBytes(ids); err != nil || string(back) != s {
			return Result{}, fmt.Errorf("%q does not round-trip: %q (%v)", s, back, err)
		}
	}
	got := tok.Encode(tokenizerSample.text)
	if !slices.Equal(got, tokenizerSample.ids) {
		return Result{}, fmt.Errorf("%q encodes to %v, GPT-2's ids are %v", tokenizerSample.text, got, tokenizerSample.ids)
	}
	return Result{Ours: fmt.Sprintf("%d strings (ASCII, accents, CJK, emoji, control and non-UTF-8 bytes) round-trip in %d tokens, none unknown; %q → %v as GPT-2",
		len(tokenizerSamples), tokens, tokenizerSample.text, got), Model: fmt.Sprintf("tokenizer.GPT2(), %s tokens", gpt.Commas(tok.VocabSize()))}, nil
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

func rowForwardTargets(r *Run) (Result, error) {
	m, err := r.smallModel()
	if err != nil {
		return Result{}, err
	}
	ids := tokens(93, m.Config.VocabSize)
	out, err := m.Forward([][]int{ids[:92]}, [][]int{ids[1:]})
	if err != nil {
		return Result{}, err
	}
	return Result{Ours: fmt.Sprintf("logits [%d, %d, %d], loss %.3f (ln %d = %.3f)",
		out.B, out.T, out.V, out.Loss, m.Config.VocabSize, math.Log(float64(m.Config.VocabSize))), Model: smallRandom}, nil
}

func rowForwardLast(r *Run) (Result, error) {
	m, err := r.smallModel()
	if err != nil {
		return Result{}, err
	}
	out, err := m.Forward([][]int{tokens(92, m.Config.VocabSize)}, nil)
	if err != nil {
		return Result{}, err
	}
	return Result{Ours: fmt.Sprintf("92 positions in, logits [%d, %d, %d] out, loss %v", out.B, out.T, out.V, out.Loss),
		Model: smallRandom}, nil
}

func rowForward1024(r *Run) (Result, error) {
	d, err := r.forwardTime()
	if err != nil {
		return Result{}, err
	}
	_, name, _ := r.timingModel()
	return Result{Ours: fmt.Sprintf("%.2f s (all 1,024 × 50,257 logits; %s)", d.Seconds(), gpt.BLAS), Model: name}, nil
}

// forwardTime is the time of a ForwardAll of GPT-2 small over 1,024 positions, all logits,
// measured once per run.
func (r *Run) forwardTime() (time.Duration, error) {
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
		gpt.Commas(un), gpt.Commas(ca)), Model: "Generator tally (any model), gpt.Positions", Figures: []string{"positions"}, Pages: []string{"positions_slider"}}, nil
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
		return Result{}, err
	}
	sampled := "every step"
	if k > 1 {
		sampled = fmt.Sprintf("uncached loop timed on every %dth step and counted for the steps between", k)
	}
	return Result{Ours: strings.Join(parts, "; ") + " (" + sampled + ")", Model: name, Figures: []string{"positions"}}, nil
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
		d.Seconds(), 1023/d.Seconds(), d.Seconds()/fwd.Seconds(), fwd.Seconds()), Model: name}, nil
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
		steps, gpt.Tiny.BlockSize, crops, same, c.MaxDiff), Model: "gpt.Tiny (block 64), random init (seed 1)"}, nil
}

// ---- Same weights, different bugs

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
		same, c.MaxDiff, c.MaxDiffShifted, c.MaxGapChange, c.NarrowestGap), Model: name, Figures: []string{"caching"}}, nil
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
	return Result{Ours: fmt.Sprintf("%s; max |Δlogit| before the split %.3g", split, c.MaxDiff), Model: name, Figures: []string{"precision"}}, nil
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
		kept, c.MaxDiff, inv.SplitK), Model: name}, nil
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
		gpt.Commas(inf), gpt.Commas(len(logits)), c.ID, c.Prob), Model: "gpt.Sampler"}, nil
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
		if _, err := g.Steps(40); err != nil {
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
	return Result{Ours: fmt.Sprintf("%d of %d sampled tokens the same in two runs [%s]", same, len(runs[0]), p), Model: name}, nil
}

// ---- Sampling is a policy on top (OpenAI's weights)

const (
	capitalPrompt = "The capital of France is"
	numpyPrompt   = "import numpy as"
)

// openAILogits are OpenAI GPT-2's next-token logits (V) after prompt, computed once per run.
func (r *Run) openAILogits(prompt string) ([]float32, string, error) {
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

func (r *Run) openAIName() string { return "OpenAI GPT-2 small (" + r.openaiPath + ")" }

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

func rowCapital(r *Run) (Result, error) {
	l, model, err := r.openAILogits(capitalPrompt)
	if err != nil {
		return Result{}, err
	}
	top, err := gpt.Ranked(l, 1, 10)
	if err != nil {
		return Result{}, err
	}
	paris := r.gpt2.Encode(" Paris")
	rank, p := rankOf(l, paris[0])
	n, _ := gpt.NucleusSize(l, 1, 0.9)
	h, _ := gpt.Entropy(l, 1)
	if err := r.save(viz.TopTokens(top, r.gpt2, fmt.Sprintf("next token after %q", capitalPrompt)), "topn"); err != nil {
		return Result{}, err
	}
	return Result{Ours: fmt.Sprintf("%q %.1f%%, \" Paris\" %s at %.1f%%; %s tokens; %.1f bits",
		r.gpt2.Decode([]int{top[0].ID}), 100*top[0].Prob, ordinal(rank), 100*p, gpt.Commas(n), h),
		Model: model, Figures: []string{"topn"}}, nil
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

func rowNumpy(r *Run) (Result, error) {
	l, model, err := r.openAILogits(numpyPrompt)
	if err != nil {
		return Result{}, err
	}
	top, err := gpt.Ranked(l, 1, 1)
	if err != nil {
		return Result{}, err
	}
	n, _ := gpt.NucleusSize(l, 1, 0.9)
	h, _ := gpt.Entropy(l, 1)
	return Result{Ours: fmt.Sprintf("%q %.0f%%; %d tokens; %.1f bits", r.gpt2.Decode([]int{top[0].ID}), 100*top[0].Prob, n, h),
		Model: model}, nil
}

// capitalAndNumpy returns OpenAI's GPT-2 next-token logits after the study's two prompts: a
// wide distribution ("The capital of France is") and a narrow one ("import numpy as").
func (r *Run) capitalAndNumpy() (capital, numpy []float32, model string, err error) {
	capital, model, err = r.openAILogits(capitalPrompt)
	if err != nil {
		return nil, nil, "", err
	}
	numpy, _, err = r.openAILogits(numpyPrompt)
	return capital, numpy, model, err
}

func rowTopK200(r *Run) (Result, error) {
	lc, ln, model, err := r.capitalAndNumpy()
	if err != nil {
		return Result{}, err
	}
	capital, _ := gpt.TopKMass(lc, 0.8, 200)
	numpy200, _ := gpt.TopKMass(ln, 0.8, 200)
	numpy1, _ := gpt.TopKMass(ln, 0.8, 1)
	return Result{Ours: fmt.Sprintf("holds %.0f%% after the capital prompt; after numpy keeps 199 options sharing %.1f%%",
		100*capital, 100*(numpy200-numpy1)), Model: model}, nil
}

func rowTopP(r *Run) (Result, error) {
	lc, ln, model, err := r.capitalAndNumpy()
	if err != nil {
		return Result{}, err
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
			return Result{}, err
		}
		sweeps = append(sweeps, s)
	}
	if err := r.save(viz.TopP(sweeps), "nucleus"); err != nil {
		return Result{}, err
	}
	if err := r.saveHTML(viz.SliderTemperature(sweeps), "nucleus_slider"); err != nil {
		return Result{}, err
	}
	return Result{Ours: fmt.Sprintf("%s tokens for capital, %s for numpy", gpt.Commas(nc), gpt.Commas(nn)),
		Model: model, Figures: []string{"nucleus"}, Pages: []string{"nucleus_slider"}}, nil
}

// temperatures are 0.1, 0.2, … 2.0, the slider's stops.
func temperatures() []float64 {
	var ts []float64
	for i := 1; i <= 20; i++ {
		ts = append(ts, float64(i)/10)
	}
	return ts
}

func rowGreedyRepeats(r *Run) (Result, error) {
	m := r.openAI()
	if m == nil {
		return Result{}, errNeedsWeights
	}
	if _, _, err := r.openAILogits(capitalPrompt); err != nil { // loads the tokenizer
		return Result{}, err
	}
	g, err := gpt.NewGenerator(m, r.gpt2.Encode(capitalPrompt), gpt.Greedy, true)
	if err != nil {
		return Result{}, err
	}
	if _, err := g.Steps(200); err != nil {
		return Result{}, err
	}
	at, span := gpt.FirstRepeat(g.Generated(), 8)
	if at < 0 {
		return Result{Ours: "no span of 8 tokens repeats in 200 greedy tokens", Model: r.openAIName()}, nil
	}
	return Result{Ours: fmt.Sprintf("from token %d it repeats the 8-token span it generated at token %d: %q",
		at, at-span, r.gpt2.Decode(g.Generated()[at:at+8])), Model: r.openAIName()}, nil
}

// ---- models

// openAI loads OpenAI's GPT-2 from --weights or gpt.Find, once; nil when there is none.
func (r *Run) openAI() *gpt.Model {
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

// trained is the model for rows about a trained Model: OpenAI's GPT-2 when found, else the
// model shipped in testdata/.
func (r *Run) trained() (*gpt.Model, string, error) {
	if m := r.openAI(); m != nil {
		r.decoder = r.gpt2
		return m, r.openAIName(), nil
	}
	if r.shipped == nil && r.shippedErr == nil {
		path, err := gpt.ShippedModelPath()
		if err != nil {
			r.shippedErr = fmt.Errorf("%w: %v", errNeedsTrained, err)
		} else if m, tok, err := gpt.Open(path); err != nil {
			r.shippedErr = fmt.Errorf("the shipped Model: %w", err) // there is one, and it is broken
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

// timingModel is the model the timing rows measure: OpenAI's GPT-2 small when found, else GPT-2
// small at init (the time of a forward does not depend on the weights).
func (r *Run) timingModel() (*gpt.Model, string, error) {
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
func (r *Run) promptFor(m *gpt.Model) []int {
	switch {
	case m == r.openai && r.gpt2 != nil:
		return r.gpt2.Encode(capitalPrompt)
	case m == r.shipped && r.encoder != nil:
		return r.encoder.Encode(goPrompt)
	}
	return tokens(11, m.Config.VocabSize)
}

func rowNanoGPTDefaults(r *Run) (Result, error) {
	return Result{Ours: "gpt.NanoGPT = " + gpt.NanoGPT.String(), Model: "gpt.Policy"}, nil
}

// ---- Figures of the notebooks

// rowLossCurve trains a byte-level gpt.Tiny on the Go source of the strings package for a
// few hundred steps and draws its loss curve: the figure the training notebook updates live.
func rowLossCurve(r *Run) (Result, error) {
	dir := filepath.Join(gpt.GoSourceDir(), "strings")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		return Result{}, fmt.Errorf("no Go source in %s: %v", dir, err)
	}
	var text []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return Result{}, err
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
		return Result{}, err
	}
	m.Init(1, true)
	const steps = 300
	t, err := gpt.NewTrainer(m, ids[:cut], ids[cut:], gpt.TrainOptions{Batch: 8, SeqLen: 64, Steps: steps, LR: 3e-3,
		Seed: 1, EvalEvery: 50, EvalBatches: 4})
	if err != nil {
		return Result{}, err
	}
	for i := 0; i < steps; i++ {
		res, err := t.Step()
		if err != nil {
			return Result{}, err
		}
		r.note("loss-curve: step %d of %d, loss %.2f", res.Step, steps, res.Loss)
		if res.Step%50 == 0 {
			v, err := t.Evaluate()
			if err != nil {
				return Result{}, err
			}
			t.History[len(t.History)-1].ValLoss = v
		}
	}
	if err := r.save(viz.LossCurve(t.History, cfg.VocabSize), "loss"); err != nil {
		return Result{}, err
	}
	first, last := t.History[0], t.History[len(t.History)-1]
	return Result{Ours: fmt.Sprintf("loss %.2f → %.2f in %d steps (validation %.2f; ln 256 = %.2f)",
		first.Loss, last.Loss, steps, last.ValLoss, math.Log(256)),
		Model: fmt.Sprintf("byte-level gpt.Tiny, %s bytes of Go's strings package, seed 1", gpt.Commas(len(text))), Figures: []string{"loss"}}, nil
}

// rowAttention traces 16 tokens through the trained model (or GPT-2 small at init when there
// is none), once per query position, and draws layer L/2 head 0 and every head of that layer.
func rowAttention(r *Run) (Result, error) {
	m, name, err := r.trained()
	if errors.Is(err, errNeedsTrained) {
		if m, err = r.smallModel(); err != nil {
			return Result{}, err
		}
		name = smallRandom
	}
	if err != nil {
		return Result{}, err
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
			return Result{}, err
		}
		traces = append(traces, tr)
	}
	layer := m.Config.Layers / 2
	w, err := viz.AttentionMatrix(traces, layer, 0)
	if err != nil {
		return Result{}, err
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
		return Result{}, err
	}
	if err := r.save(p, "attention"); err != nil {
		return Result{}, err
	}
	heads, err := viz.AttentionHeads(traces[len(traces)-1], layer, r.decoder)
	if err != nil {
		return Result{}, err
	}
	if err := r.save(heads, "attention_heads"); err != nil {
		return Result{}, err
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
	return Result{Ours: fmt.Sprintf("16 positions, layer %d head 0: mean largest weight %.2f", layer, sharp),
		Model: name, Figures: []string{"attention", "attention_heads"}}, nil
}

// rowSamplingFigures draws the sampling figures on the trained model the run has: the study's
// prompts on OpenAI's GPT-2, lines of Go on the shipped model.
func rowSamplingFigures(r *Run) (Result, error) {
	m, name, err := r.trained()
	if err != nil {
		return Result{}, err
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
		return Result{}, fmt.Errorf("the shipped model has no tokenizer beside it to encode prompts")
	}
	var sweeps []viz.TemperatureSweep
	var parts []string
	for i, prompt := range prompts {
		l, err := m.NextLogits(enc(prompt))
		if err != nil {
			return Result{}, err
		}
		s, err := viz.SweepTemperature(prompt, l, 0.9, temperatures())
		if err != nil {
			return Result{}, err
		}
		sweeps = append(sweeps, s)
		at1 := s.At(1)
		parts = append(parts, fmt.Sprintf("%q: %d tokens hold 90%% at T=1, %.1f bits", prompt, s.NucleusSizes[at1], s.EntropyBits))
		if i == 0 {
			top, err := gpt.Ranked(l, 1, 10)
			if err != nil {
				return Result{}, err
			}
			if err := r.save(viz.TopTokens(top, r.decoder, fmt.Sprintf("next token after %q", prompt)), "next_token"); err != nil {
				return Result{}, err
			}
		}
	}
	if err := r.save(viz.TopP(sweeps), "sampling"); err != nil {
		return Result{}, err
	}
	if err := r.saveHTML(viz.SliderTemperature(sweeps), "sampling_slider"); err != nil {
		return Result{}, err
	}
	return Result{Ours: strings.Join(parts, "; "), Model: name,
		Figures: []string{"next_token", "sampling"}, Pages: []string{"sampling_slider"}}, nil
}
