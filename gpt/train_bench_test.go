package gpt

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkTrainStepMini is one training step of the teaching configuration (gpt.Mini,
// batch 16 × 256): forward, backward and AdamW; it reports tokens/s.
// Compare with tests/bench_train.py (PyTorch, same config):
//
//	go test -tags openblas -run '^$' -bench TrainStepMini -benchtime 5x ./gpt
func BenchmarkTrainStepMini(b *testing.B) {
	benchTrainStep(b, Mini, 16)
}

// BenchmarkTrainStepGopher is one training step of the shipped model's shape (gpt.Gopher,
// batch 16 × 256), the speed its training run should have gone at:
//
//	go test -tags openblas -run '^$' -bench TrainStepGopher -benchtime 5x ./gpt
func BenchmarkTrainStepGopher(b *testing.B) {
	benchTrainStep(b, Gopher, 16)
}

func benchTrainStep(b *testing.B, cfg Config, B int) {
	m, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	m.Init(1, true)
	x, y := randomBatch(rand.New(rand.NewPCG(1, 1)), B, cfg.BlockSize, cfg.VocabSize)
	opt := NewAdamW(m.Params)
	step := func() {
		if _, err := m.Forward(x, y); err != nil {
			b.Fatal(err)
		}
		if err := m.Backward(); err != nil {
			b.Fatal(err)
		}
		if _, err := opt.Update(m.Params, m.Grads, 1e-4); err != nil {
			b.Fatal(err)
		}
	}
	step() // allocate the buffers
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		step()
	}
	b.ReportMetric(float64(B*cfg.BlockSize*b.N)/b.Elapsed().Seconds(), "tokens/s")
}
