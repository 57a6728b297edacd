// Command goldendata measures, once, the data the figures' golden images are drawn from, and
// writes it as small JSON files beside the goldens:
//
//	go run ./viz/internal/goldendata            # from the repository's root; a few minutes
//	go run ./viz/internal/goldendata residual   # only some of the files
//
// Every measurement is a real run: the residual stream of freshly initialised models
// (gpt.ResidualGrowth), and the shipped model (testdata/gopher.safetensors) for attention,
// next-token distributions, the precision and caching comparisons and the decode timings; the
// loss curve is a short real training run; the roofline is a `gptnotes bench` run of
// GPT-2 Small's shapes on this machine. The Examples in package viz read these files, so the
// golden images show what the figures teach and do not depend on this machine's arithmetic.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/gpt/bench"
	"github.com/gptnotes/gptnotes/viz"
	"github.com/gptnotes/gptnotes/viz/internal/golden"
)

// The prompt of the shipped-model figures: a line of Go it has seen the like of.
const prompt = "func main() {\n\tfmt.Println(\"hello, world\")\n}\n"

func main() {
	jobs := []struct {
		name string
		run  func() (any, error)
	}{
		{"residual", residual},
		{"attention", attention},
		{"topn", topn},
		{"nucleus", nucleus},
		{"precision", precision},
		{"caching", caching},
		{"positions", positions},
		{"loss", loss},
		{"roofline", roofline},
	}
	for _, j := range jobs {
		if len(os.Args) > 1 && !slices.Contains(os.Args[1:], j.name) {
			continue
		}
		v, err := j.run()
		if err != nil {
			log.Fatalf("goldendata: %s: %v", j.name, err)
		}
		b, err := json.MarshalIndent(v, "", " ")
		if err != nil {
			log.Fatalf("goldendata: %s: %v", j.name, err)
		}
		path := filepath.Join("viz", "testdata", j.name+".json")
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Println("wrote", path)
	}
}

// residual: GPT-2 small's width at 12 and 48 blocks, scaled and plain init, three seeds each.
func residual() (any, error) {
	var gs []gpt.Growth
	for _, L := range []int{12, 48} {
		for _, scaled := range []bool{true, false} {
			for seed := uint64(1); seed <= 3; seed++ {
				cfg := gpt.Config{VocabSize: 1024, BlockSize: 1024, Layers: L, Heads: 12, Channels: 768}
				g, err := gpt.ResidualGrowth(cfg, seed, scaled, 64)
				if err != nil {
					return nil, err
				}
				fmt.Println(g)
				gs = append(gs, g)
			}
		}
	}
	return gs, nil
}

func shipped() (*gpt.Model, golden.Vocab, []int, error) {
	m, tok, err := gpt.Open(filepath.Join("testdata", gpt.ShippedModel))
	if err != nil {
		return nil, golden.Vocab{}, nil, err
	}
	return m, golden.Vocab{Decoder: tok}, tok.Encode(prompt), nil
}

// attention: every head's (T, T) pattern in layer 3 of the shipped model over the prompt (its
// head 3 puts the most weight one token back).
func attention() (any, error) {
	m, vocab, ids, err := shipped()
	if err != nil {
		return nil, err
	}
	T := len(ids)
	a := golden.Attention{Tokens: vocab.Tokens(ids), Layer: 3}
	for q := 0; q < T; q++ {
		tr, err := m.Trace(ids, gpt.TraceOptions{Position: q})
		if err != nil {
			return nil, err
		}
		heads := tr.Attention[a.Layer]
		if a.Patterns == nil {
			a.Patterns = make([][]float32, len(heads))
			for h := range a.Patterns {
				a.Patterns[h] = make([]float32, T*T)
			}
		}
		for h, row := range heads {
			copy(a.Patterns[h][q*T:], row)
		}
	}
	return a, nil
}

// topn: the shipped model's next-token candidates after the prompt's first line.
func topn() (any, error) {
	m, vocab, _, err := shipped()
	if err != nil {
		return nil, err
	}
	p := "func main() {\n\tfmt."
	logits, err := m.NextLogits(vocab.Encode(p))
	if err != nil {
		return nil, err
	}
	cs, err := gpt.Ranked(logits, 1, 10)
	if err != nil {
		return nil, err
	}
	var ids []int
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return golden.TopN{Prompt: p, Candidates: cs, Vocab: vocab.Map(ids)}, nil
}

// nucleus: three prompts from open (9.4 bits) to nearly certain (0.1 bits), swept over the
// temperature.
func nucleus() (any, error) {
	m, vocab, _, err := shipped()
	if err != nil {
		return nil, err
	}
	var temps []float64
	for i := 1; i <= 20; i++ {
		temps = append(temps, float64(i)/10)
	}
	var ss []viz.TemperatureSweep
	for _, p := range []string{"// Package ", "for i := 0; i < len(s); i", "func main() {\n\t"} {
		logits, err := m.NextLogits(vocab.Encode(p))
		if err != nil {
			return nil, err
		}
		s, err := viz.SweepTemperature(fmt.Sprintf("%q", p), logits, 0.9, temps)
		if err != nil {
			return nil, err
		}
		ss = append(ss, s)
	}
	return ss, nil
}

// precision: the shipped model against its bf16 twin, greedy, 40 steps, after a prompt whose
// greedy continuations split (at step 7; after the attention figures' prompt they do not split
// within 100 steps).
func precision() (any, error) {
	m, vocab, _, err := shipped()
	if err != nil {
		return nil, err
	}
	ids := vocab.Encode("func (b *Buffer) Len() int {")
	c, err := gpt.ComparePrecision(m, m.WithPrecision(gpt.BF16), ids, 40)
	if err != nil {
		return nil, err
	}
	c.Decoder = nil
	return golden.Precision{Comparison: c, Vocab: vocab.Map(append(slices.Clone(c.FP32Tokens), c.BF16Tokens...))}, nil
}

// caching: the shipped model's cached loop against its uncached one, greedy, 200 steps.
func caching() (any, error) {
	m, _, ids, err := shipped()
	if err != nil {
		return nil, err
	}
	return gpt.CompareCaching(m, ids, 200)
}

// positions: the wall time of the cached and the uncached loop at 64, 128 and 256 new tokens.
func positions() (any, error) {
	m, _, ids, err := shipped()
	if err != nil {
		return nil, err
	}
	var ts []viz.DecodeTiming
	for _, n := range []int{64, 128, 256} {
		c, err := gpt.CompareCaching(m, ids, n)
		if err != nil {
			return nil, err
		}
		ts = append(ts, viz.DecodeTiming{NewTokens: n, Cached: c.CachedTime, Uncached: c.UncachedTime})
	}
	return golden.Positions{PromptLen: len(ids), Timings: ts}, nil
}

// roofline: `gptnotes bench`'s run of GPT-2 Small's shapes (random init) in fp32 and bf16,
// with the forward's products and attention over 1,024 positions: the machine's ceilings
// and the points under them. Build with -tags openblas, as the Makefile does, so that the
// products not on our own kernels run on OpenBLAS.
func roofline() (any, error) {
	return bench.Run(bench.Options{Models: []string{"small"}, PP: []int{1024}, TG: []int{128}, Points: true, Progress: os.Stderr})
}

// loss: a two-block model trained for 300 steps on Go's strings package with the shipped
// tokenizer, as notebook 3 does for 80.
func loss() (any, error) {
	_, tok, err := gpt.Open(filepath.Join("testdata", gpt.ShippedModel))
	if err != nil {
		return nil, err
	}
	corpus, err := gpt.OpenTokenized(filepath.Join(gpt.GoSourceDir(), "strings"), tok, gpt.CorpusOptions{CacheDir: "-"})
	if err != nil {
		return nil, err
	}
	m, err := gpt.New(gpt.Config{VocabSize: tok.VocabSize(), BlockSize: 64, Layers: 2, Heads: 4, Channels: 64})
	if err != nil {
		return nil, err
	}
	m.Init(1, true)
	tr, err := gpt.NewTrainer(m, corpus.Train, corpus.Val, gpt.TrainOptions{
		Batch: 8, SeqLen: 64, Steps: 300, LR: 3e-3, EvalEvery: 25, EvalBatches: 4, Seed: 1})
	if err != nil {
		return nil, err
	}
	if err := tr.Run(context.Background()); err != nil {
		return nil, err
	}
	l := golden.Loss{Vocab: tok.VocabSize()}
	for _, r := range tr.History {
		s := golden.Step{Step: r.Step, Steps: r.Steps, Loss: r.Loss}
		if !math.IsNaN(r.ValLoss) {
			v := r.ValLoss
			s.ValLoss = &v
		}
		l.Steps = append(l.Steps, s)
	}
	return l, nil
}
