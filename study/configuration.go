package study

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/tokenizer"
	"github.com/gptnotes/gptnotes/viz"
)

// The rows of the study's first section, GPT-2's configuration and its five decisions: the
// configuration, the parameter counts, the position table, the init, the residual stream's
// growth at init and the byte-level tokenizer.

func rowConfig(r *Run) (Result, error) {
	c := gpt.Small
	padded := (c.VocabSize + 63) / 64 * 64
	return Result{Ours: fmt.Sprintf("%s positions, %d blocks, %d heads, width %d, vocab %s (padded to a multiple of 64: %s)",
		gpt.Commas(c.BlockSize), c.Layers, c.Heads, c.Channels, gpt.Commas(c.VocabSize), gpt.Commas(padded)),
		Numbers: []Number{{"positions", float64(c.BlockSize), "positions"}, {"blocks", float64(c.Layers), ""},
			{"heads", float64(c.Heads), ""}, {"width", float64(c.Channels), ""}, {"vocab", float64(c.VocabSize), "tokens"},
			{"padded vocab", float64(padded), "tokens"}},
		Model: "gpt.Small"}, nil
}

func rowParams(r *Run) (Result, error) {
	n := gpt.Count(gpt.Small).Tied
	return Result{Ours: gpt.Commas(n), Numbers: []Number{{"parameters", float64(n), ""}}, Model: "gpt.Count(gpt.Small)"}, nil
}

func rowUntied(r *Run) (Result, error) {
	n := gpt.Count(gpt.Small).Untied
	return Result{Ours: gpt.Commas(n), Numbers: []Number{{"parameters", float64(n), ""}}, Model: "gpt.Count(gpt.Small)"}, nil
}

func rowTokenShare(r *Run) (Result, error) {
	c := gpt.Count(gpt.Small)
	return Result{Ours: fmt.Sprintf("%.1f%% (%s of %s)", 100*c.TokenShare, gpt.Commas(c.TokenTable), gpt.Commas(c.Tied)),
		Numbers: []Number{{"share", c.TokenShare, ""}, {"token table", float64(c.TokenTable), "parameters"},
			{"parameters", float64(c.Tied), ""}},
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
	const long = 1100
	_, err = m.Forward([][]int{make([]int, long)}, nil)
	if err == nil {
		return Result{}, fmt.Errorf("forwarding 1,100 positions did not fail")
	}
	return Result{Ours: fmt.Sprintf("wpe shape %v; %q", wpe.Shape, err.Error()),
		Numbers: []Number{{"wpe rows", float64(wpe.Shape[0]), "positions"}, {"wpe columns", float64(wpe.Shape[1]), ""},
			{"refused length", long, "positions"}},
		Model: "GPT-2 small, zeroed"}, nil
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
		matrix.std(), gpt.Commas(matrix.n), resid.std(), gpt.Commas(resid.n), biasMax, lnOff),
		Numbers: []Number{{"matrix std", matrix.std(), ""}, {"matrix numbers", float64(matrix.n), ""},
			{"c_proj std", resid.std(), ""}, {"c_proj numbers", float64(resid.n), ""},
			{"max |bias|", biasMax, ""}, {"max |LayerNorm weight − 1|", lnOff, ""}},
		Model: smallRandom}, nil
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
	var nums []Number // "scaled 12 blocks", …: ‖x_L‖/‖x_0‖
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
		nums = append(nums, Number{fmt.Sprintf("%s %d blocks", init, jobs[i].layers), mean, ""})
	}
	if err := r.save(viz.ResidualNorms(gs), "residual"); err != nil {
		return Result{}, err
	}
	return Result{Ours: strings.Join(parts, ", ") + " (mean of seeds 1–3)", Numbers: nums,
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
		len(tokenizerSamples), tokens, tokenizerSample.text, got),
		Numbers: []Number{{"strings", float64(len(tokenizerSamples)), ""}, {"tokens", float64(tokens), "tokens"},
			{"vocab", float64(tok.VocabSize()), "tokens"}},
		Model: fmt.Sprintf("tokenizer.GPT2(), %s tokens", gpt.Commas(tok.VocabSize()))}, nil
}
