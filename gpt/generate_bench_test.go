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

// benchGenerate times generating n tokens after a prompt of p tokens.
func benchGenerate(b *testing.B, cached bool, p, n int) {
	m := genBenchSmall(b)
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
