package gpt

import (
	"fmt"
	"testing"
)

// The Speed section of issue 5, beside tests/bench_generate.py (PyTorch on the same machine):
// greedy decode of GPT-2 Small (random init, fp32, batch 1) after an 11-token prompt, with
// and without the KV cache, and 1,023 tokens with the cache after a 1-token prompt. Each
// iteration is a whole generation; tok/s counts the generated tokens. Run:
//
//	go test -tags openblas -run '^$' -bench 'Generate' -benchtime 1x ./gpt/

var genBenchModel *Model

func genBenchSmall(b *testing.B) *Model {
	if genBenchModel == nil {
		m, err := New(Small)
		if err != nil {
			b.Fatal(err)
		}
		m.Init(1337, true)
		genBenchModel = m
	}
	return genBenchModel
}

var genBenchModel16 *Model

// genBenchSmall16 is genBenchSmall's model in BF16.
func genBenchSmall16(b *testing.B) *Model {
	if genBenchModel16 == nil {
		genBenchModel16 = genBenchSmall(b).WithPrecision(BF16)
	}
	return genBenchModel16
}

// benchGenerate times generating n tokens after a prompt of p tokens.
func benchGenerate(b *testing.B, cached bool, p, n int) {
	benchGenerateModel(b, genBenchSmall(b), cached, p, n)
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
// in bf16 (weights read at 2 bytes each), side by side in one run:
//
//	go test -tags openblas -run '^$' -bench 'GenerateSmallPrecision' -benchtime 1x -count 3 ./gpt/
func BenchmarkGenerateSmallPrecision(b *testing.B) {
	for _, p := range []Precision{FP32, BF16} {
		b.Run(fmt.Sprintf("%v/cached/new=64", p), func(b *testing.B) {
			m := genBenchSmall(b)
			if p == BF16 {
				m = genBenchSmall16(b)
			}
			benchGenerateModel(b, m, true, 11, 64)
		})
	}
}
