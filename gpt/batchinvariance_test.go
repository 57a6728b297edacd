package gpt

import (
	"math"
	"testing"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// splitKLogits computes the same product as the output layer: with one chunk its sums are
// the plain float32 loop, and every plan stays within float32 rounding of a float64 sum.
func TestSplitKLogitsIsTheOutputLayer(t *testing.T) {
	const N, C, V = 3, 96, 50
	rng := newInitRNG(3)
	inp, wte := make([]float32, N*C), make([]float32, V*C)
	normal(rng, inp, 1)
	normal(rng, wte, 0.5)
	got := make([]float32, N*V)
	splitKLogits(got, inp, wte, N, C, V)
	for n := 0; n < N; n++ {
		for v := 0; v < V; v++ {
			var want float64
			for i := 0; i < C; i++ {
				want += float64(inp[n*C+i]) * float64(wte[v*C+i])
			}
			if d := math.Abs(float64(got[n*V+v]) - want); d > 1e-4 {
				t.Errorf("row %d, token %d: split-K %v, float64 %v, |Δ| %.2g", n, v, got[n*V+v], want, d)
			}
		}
	}
	for _, c := range [][2]int{{1, 8}, {11, 8}, {32, 4}, {88, 2}, {1024, 1}} {
		if got := splitKChunks(c[0]); got != c[1] {
			t.Errorf("plan for %d rows: %d chunks, want %d", c[0], got, c[1])
		}
	}
}

// The lesson of notebook 05: from 6 positions (the sgemm's tile) our output layer gives a
// prompt the same logits alone and in a batch of 8, to the bit, and a split-K one whose plan
// follows the number of rows does not.
func TestBatchInvariance(t *testing.T) {
	m, err := New(Config{VocabSize: 2048, BlockSize: 32, Layers: 2, Heads: 4, Channels: 256})
	if err != nil {
		t.Fatal(err)
	}
	m.Init(7, true)
	r, err := CompareBatchInvariance(m, []int{5, 17, 300, 42, 9, 1000, 3, 77, 1999, 64, 12}, 8)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r)
	if fast.HasAVX2 && r.Ours != 0 {
		t.Errorf("our output layer moved by %g between batch 1 and 8, want exactly 0", r.Ours)
	}
	if r.SplitK == 0 {
		t.Errorf("the split-K output layer gave the same logits with %d and %d chunks: the lesson has nothing to show", r.SplitsAlone, r.SplitsBatched)
	}
	if r.OursOneRow == 0 {
		t.Logf("one row alone and in the batch agree: gemv and the sgemm summed alike here")
	}
	if r.SplitK > 1e-3 {
		t.Errorf("split-K moved the logits by %g: more than float32 rounding", r.SplitK)
	}
	if _, err := CompareBatchInvariance(m, []int{1}, 1); err == nil {
		t.Error("batch 1 accepted")
	}
}
