package gpt

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"
)

// The Speed section of issue 5, beside tests/bench_generate.py (PyTorch on the same machine):
// greedy decode of GPT-2 Small (random init, fp32, batch 1) after an 11-token prompt, with
// and without the KV cache, and 1,023 tokens with the cache after a 1-token prompt. Each
// iteration is a whole generation; tok/s counts the generated tokens. Run:
//
//	go test -tags openblas -run '^$' -bench 'Generate' -benchtime 1x ./gpt/

var benchSmall16 *Model

// smallModel16 is smallModel's model (bench_test.go) in BF16, built once.
func smallModel16(b *testing.B) *Model {
	if benchSmall16 == nil {
		benchSmall16 = smallModel(b).WithPrecision(BF16)
	}
	return benchSmall16
}

// benchGenerate times generating n tokens after a prompt of p tokens.
func benchGenerate(b *testing.B, cached bool, p, n int) {
	benchGenerateModel(b, smallModel(b), cached, p, n)
}

// benchGenerateModel is benchGenerate with model m.
func benchGenerateModel(b *testing.B, m *Model, cached bool, p, n int) {
	prompt := genPrompt(5, p, Small.VocabSize)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := NewGenerator(m, prompt, Greedy, cached)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := g.Steps(n); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "tok/s")
}

func BenchmarkGenerateSmall(b *testing.B) {
	for _, n := range []int{64, 256, 512} {
		b.Run(fmt.Sprintf("cached/new=%d", n), func(b *testing.B) { benchGenerate(b, true, 11, n) })
	}
	for _, n := range []int{64, 256, 512} {
		b.Run(fmt.Sprintf("uncached/new=%d", n), func(b *testing.B) { benchGenerate(b, false, 11, n) })
	}
	b.Run("cached/prompt=1/new=1023", func(b *testing.B) { benchGenerate(b, true, 1, 1023) })
}

// BenchmarkGenerateSmallPrecision is the cached decode of BenchmarkGenerateSmall in fp32 and
// in bf16 (weights read at 2 bytes each), side by side in one run, with the tokens/s of
// the median step and the best step's time:
//
//	go test -tags openblas -run '^$' -bench 'GenerateSmallPrecision' -benchtime 1x -count 3 ./gpt/
func BenchmarkGenerateSmallPrecision(b *testing.B) {
	for _, p := range []Precision{FP32, BF16} {
		b.Run(fmt.Sprintf("%v/cached/new=64", p), func(b *testing.B) {
			m := smallModel(b)
			if p == BF16 {
				m = smallModel16(b)
			}
			prompt := genPrompt(5, 11, Small.VocabSize)
			b.ResetTimer()            // not the model's init
			var steps []time.Duration // each token's time: the median and best beside the mean
			for i := 0; i < b.N; i++ {
				g, err := NewGenerator(m, prompt, Greedy, true)
				if err != nil {
					b.Fatal(err)
				}
				for range 64 {
					t := time.Now()
					if _, err := g.Step(); err != nil {
						b.Fatal(err)
					}
					steps = append(steps, time.Since(t))
				}
			}
			slices.Sort(steps)
			b.ReportMetric(float64(64*b.N)/b.Elapsed().Seconds(), "tok/s")
			b.ReportMetric(1/steps[len(steps)/2].Seconds(), "median-tok/s")
			b.ReportMetric(steps[0].Seconds()*1e3, "best-ms/token")
		})
	}
}

// BenchmarkDecodeStagesSmall splits a cached decode step of GPT-2 Small (after an 11-token
// prompt) into its stages, in each precision: the whole step, the 48 one-row products of
// the blocks alone (on the model's own weights), and the output layer's alone. The rest of
// the step (attention over the cache, LayerNorm, GELU, the bf16 rounding, the loop) is the
// difference. Each is reported as the median and the best of its iterations in ms, with
// the weight bytes it reads in the best as GB/s.
//
//	go test -tags openblas -run '^$' -bench 'DecodeStagesSmall' -benchtime 64x -count 3 ./gpt/
func BenchmarkDecodeStagesSmall(b *testing.B) {
	C, V, L := Small.Channels, Small.VocabSize, Small.Layers
	for _, p := range []Precision{FP32, BF16} {
		m := smallModel(b)
		if p == BF16 {
			m = smallModel16(b)
		}
		bytes := 4
		if p == BF16 {
			bytes = 2
		}
		x, y := make([]float32, 4*C), make([]float32, V)
		for i := range x {
			x[i] = RoundBF16(float32(i%7) * 0.1)
		}
		var times []time.Duration // of each iteration: on a shared machine the best and the median say more than the mean
		report := func(b *testing.B, weights int) {
			slices.Sort(times)
			best := times[0].Seconds() * 1e3
			b.ReportMetric(times[len(times)/2].Seconds()*1e3, "median-ms")
			b.ReportMetric(best, "best-ms")
			b.ReportMetric(float64(bytes*weights)/best/1e6, "best-GB/s")
			times = times[:0]
		}
		timed := func(f func()) {
			t := time.Now()
			f()
			times = append(times, time.Since(t))
		}
		b.Run(p.String()+"/step", func(b *testing.B) {
			prompt := genPrompt(5, 11, V)
			c := m.NewCache()
			if _, err := m.ForwardCached(c, prompt); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.n = 11
				timed(func() {
					if _, err := m.ForwardCached(c, prompt[10:]); err != nil {
						b.Fatal(err)
					}
				})
			}
			report(b, Small.NumParams())
		})
		b.Run(p.String()+"/blocks-products", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				timed(func() {
					for l := 0; l < L; l++ {
						w := m.block(l)
						conv1D(y, x, w.CAttnW, w.cAttnW16, w.CAttnB, 1, C, 3*C)
						conv1D(y, x, w.AttnCProjW, w.attnCProjW16, w.AttnCProjB, 1, C, C)
						conv1D(y, x, w.CFcW, w.cFcW16, w.CFcB, 1, C, 4*C)
						conv1D(y, x, w.MlpCProjW, w.mlpCProjW16, w.MlpCProjB, 1, 4*C, C)
					}
				})
			}
			report(b, L*12*C*C)
		})
		b.Run(p.String()+"/logits", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				timed(func() { m.logits(y, x, 1) })
			}
			report(b, V*C)
		})
	}
}

// BenchmarkPrefillSmallPrecision is the prompt's forward that comes before a cached decode's
// first token (ForwardCached of 1 to 64 tokens into an empty cache), in fp32 and bf16: the
// wait before anything is generated. Each iteration times the prompt, then one decode step
// after it (the same cache), so the two share the machine's moment: reported are the
// prompt's best, and the median prompt over the median step (the goal for 1-4
// tokens: ≤ 3).
//
//	go test -tags openblas -run '^$' -bench 'PrefillSmallPrecision' -benchtime 7x ./gpt/
func BenchmarkPrefillSmallPrecision(b *testing.B) {
	for _, p := range []Precision{FP32, BF16} {
		for _, n := range []int{1, 2, 3, 4, 11, 64} {
			b.Run(fmt.Sprintf("%v/prompt=%d", p, n), func(b *testing.B) {
				m := smallModel(b)
				if p == BF16 {
					m = smallModel16(b)
				}
				ids := genPrompt(5, n+1, Small.VocabSize)
				c := m.NewCache()
				var prompts, steps []time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					c.Reset()
					t := time.Now()
					if _, err := m.ForwardCached(c, ids[:n]); err != nil {
						b.Fatal(err)
					}
					prompts = append(prompts, time.Since(t))
					t = time.Now()
					if _, err := m.ForwardCached(c, ids[n:]); err != nil {
						b.Fatal(err)
					}
					steps = append(steps, time.Since(t))
				}
				slices.Sort(prompts)
				slices.Sort(steps)
				b.ReportMetric(prompts[0].Seconds()*1e3, "best-ms")
				b.ReportMetric(prompts[len(prompts)/2].Seconds()/steps[len(steps)/2].Seconds(), "prompt/step")
			})
		}
	}
}

// BenchmarkFirstStepSmall is a new Generator's first step against its later ones, GPT-2
// Small in each precision, after a 1-token prompt (the first step a decode step itself, plus
// making the cache) and an 11-token one (plus the prompt's forward): each iteration a new
// Generator and 33 steps; the first step's median, the median of the later steps, and
// their ratio (the goal: ≤ 2).
//
//	go test -tags openblas -run '^$' -bench 'FirstStepSmall' -benchtime 5x ./gpt/
func BenchmarkFirstStepSmall(b *testing.B) {
	for _, p := range []Precision{FP32, BF16} {
		for _, n := range []int{1, 11} {
			b.Run(fmt.Sprintf("%v/prompt=%d", p, n), func(b *testing.B) {
				m := smallModel(b)
				if p == BF16 {
					m = smallModel16(b)
				}
				prompt := genPrompt(5, n, Small.VocabSize)
				var first, later []time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					g, err := NewGenerator(m, prompt, Greedy, true)
					if err != nil {
						b.Fatal(err)
					}
					for s := range 33 {
						t := time.Now()
						if _, err := g.Step(); err != nil {
							b.Fatal(err)
						}
						if s == 0 {
							first = append(first, time.Since(t))
						} else {
							later = append(later, time.Since(t))
						}
					}
				}
				slices.Sort(first)
				slices.Sort(later)
				f, l := first[len(first)/2].Seconds()*1e3, later[len(later)/2].Seconds()*1e3
				b.ReportMetric(f, "first-ms")
				b.ReportMetric(l, "median-ms")
				b.ReportMetric(f/l, "first/median")
			})
		}
	}
}

// BenchmarkRun256Small is a 256-token cached run of GPT-2 Small in each precision (a new
// Generator, an 11-token prompt, Reserve(256), 256 steps, Close) with the garbage
// collections that landed in it, what it allocated, and its median step. The first run
// makes the cache (19.6 MB in fp32, for 266 positions) and gives it back; every later run,
// the timed ones with -benchtime 5x included, takes that slab again:
//
//	go test -tags openblas -run '^$' -bench 'Run256Small' -benchtime 1x ./gpt/
func BenchmarkRun256Small(b *testing.B) {
	for _, p := range []Precision{FP32, BF16} {
		b.Run(p.String(), func(b *testing.B) {
			m := smallModel(b)
			if p == BF16 {
				m = smallModel16(b)
			}
			prompt := genPrompt(5, 11, Small.VocabSize)
			var steps []time.Duration
			var gcs, bytes uint64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				g, err := NewGenerator(m, prompt, Greedy, true)
				if err != nil {
					b.Fatal(err)
				}
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				g.Reserve(256)
				for range 256 {
					s, err := g.Step()
					if err != nil {
						b.Fatal(err)
					}
					steps = append(steps, s.Time)
				}
				g.Close()
				runtime.ReadMemStats(&after)
				gcs += uint64(after.NumGC - before.NumGC)
				bytes += after.TotalAlloc - before.TotalAlloc
			}
			slices.Sort(steps)
			b.ReportMetric(float64(gcs)/float64(b.N), "gc/run")
			b.ReportMetric(float64(bytes)/float64(b.N)/1e6, "MB/run")
			b.ReportMetric(1/steps[len(steps)/2].Seconds(), "median-tok/s")
		})
	}
}
