package gpt

import (
	"math/rand/v2"
	"testing"
)

// What a laptop without our assembly should expect (docs/laptops.md): the shipped model's shape
// (Gopher, random init: the speed depends on the shape, not the weights) over a whole 256-token
// window, and one cached decode step at its end. Run them on both paths of this machine:
//
//	go test -run '^$' -bench 'Gopher' -benchtime 10x ./gpt/
//	GPTNOTES_CPU=go go test -tags noasm -run '^$' -bench 'Gopher' -benchtime 10x ./gpt/
//
// (noasm turns off gonum's own amd64 assembly too, so every product is a Go loop, as on arm64.)

func gopherModel(b *testing.B) *Model {
	m, err := New(Gopher)
	if err != nil {
		b.Fatal(err)
	}
	m.Init(1337, true)
	return m
}

// BenchmarkForwardGopher256 is one forward of the shipped model's shape over 256 positions,
// all logits, batch 1.
func BenchmarkForwardGopher256(b *testing.B) {
	m := gopherModel(b)
	ids := randomIDs(rand.New(rand.NewPCG(1, 1)), Gopher.BlockSize, Gopher.VocabSize)
	if _, err := m.ForwardAll([][]int{ids}); err != nil { // warm the buffers
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.ForwardAll([][]int{ids}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(forwardFLOPs(Gopher, Gopher.BlockSize)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkDecodeStepGopher is one cached decode step of the shipped model's shape after a
// 255-token prompt.
func BenchmarkDecodeStepGopher(b *testing.B) {
	benchDecodeStep(b, gopherModel(b), 255)
}
