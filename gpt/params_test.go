package gpt

import (
	"math"
	"testing"
)

// The study's counts for GPT-2 small (package study, "five decisions").
func TestCountSmall(t *testing.T) {
	c := Count(Small)
	if c.Tied != 124_439_808 {
		t.Errorf("tied params = %s, want 124,439,808", Commas(c.Tied))
	}
	if c.Untied != 163_037_184 {
		t.Errorf("untied params = %s, want 163,037,184", Commas(c.Untied))
	}
	if math.Abs(c.TokenShare-0.31) > 0.005 {
		t.Errorf("token table share = %.4f, want ≈0.31", c.TokenShare)
	}
	if got := c.TokenTable + c.Positions + c.Blocks + c.FinalNorm; got != c.Tied {
		t.Errorf("census parts sum to %d, total is %d", got, c.Tied)
	}
}

func TestViewsCoverSlab(t *testing.T) {
	p, err := NewParams(Tiny)
	if err != nil {
		t.Fatal(err)
	}
	// Write each tensor's index into its view; every slab entry must be written exactly once.
	seen := make([]int, len(p.Data))
	for i, tn := range p.Tensors {
		for j := range tn.Data {
			tn.Data[j] = float32(i)
			seen[tn.Offset+j]++
		}
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("slab index %d covered %d times", i, n)
		}
	}
	if w, ok := p.Tensor("transformer.h.1.mlp.c_fc.weight"); !ok || &w.Data[0] != &p.H[1].CFcW[0] {
		t.Errorf("Tensor(h.1.mlp.c_fc.weight) does not alias H[1].CFcW")
	}
	if len(p.H[0].CAttnW) != 32*96 || len(p.LnFB) != 32 {
		t.Errorf("view sizes: c_attn %d, ln_f.bias %d", len(p.H[0].CAttnW), len(p.LnFB))
	}
}

func TestInit(t *testing.T) {
	cfg := Config{VocabSize: 1000, BlockSize: 64, Layers: 8, Heads: 4, Channels: 64}
	p, _ := NewParams(cfg)
	p.Init(1, true)
	std := func(x []float32) float64 {
		var s float64
		for _, v := range x {
			s += float64(v) * float64(v)
		}
		return math.Sqrt(s / float64(len(x)))
	}
	if got := std(p.Wte); math.Abs(got-0.02) > 0.001 {
		t.Errorf("wte std %.4f, want 0.02", got)
	}
	want := 0.02 / math.Sqrt(16)
	if got := std(p.H[3].MlpCProjW); math.Abs(got-want)/want > 0.05 {
		t.Errorf("scaled mlp.c_proj std %.5f, want %.5f", got, want)
	}
	if p.H[2].Ln1W[5] != 1 || p.H[2].Ln1B[5] != 0 || p.H[2].CFcB[7] != 0 {
		t.Errorf("LayerNorm/bias init wrong")
	}
	q, _ := NewParams(cfg)
	q.Init(1, true)
	for i := range p.Data {
		if p.Data[i] != q.Data[i] {
			t.Fatalf("same seed, different parameter at %d", i)
		}
	}
}
