package gpt

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestTrace(t *testing.T) {
	m := newTestModel(t, Tiny, 13)
	ids := randomIDs(rand.New(rand.NewPCG(13, 13)), 30, Tiny.VocabSize)
	tr, err := m.Trace(ids, TraceOptions{Position: -3})
	if err != nil {
		t.Fatal(err)
	}
	L, NH := Tiny.Layers, Tiny.Heads
	if len(tr.Norms) != L+1 || len(tr.MeanNorms) != L+1 || len(tr.Attention) != L || len(tr.Stages) != L+2 {
		t.Fatalf("trace: %d norm rows, %d means, %d attention layers, %d stages; want %d, %d, %d, %d",
			len(tr.Norms), len(tr.MeanNorms), len(tr.Attention), len(tr.Stages), L+1, L+1, L, L+2)
	}
	if tr.Position != 27 {
		t.Errorf("position -3 of 30 resolved to %d, want 27", tr.Position)
	}
	for l, heads := range tr.Attention {
		if len(heads) != NH {
			t.Fatalf("layer %d: %d heads", l, len(heads))
		}
		for h, row := range heads {
			var s float64
			for _, w := range row {
				s += float64(w)
			}
			if len(row) != 28 || math.Abs(s-1) > 1e-5 {
				t.Errorf("layer %d head %d: %d weights summing to %v, want 28 summing to 1", l, h, len(row), s)
			}
		}
	}
	// The embedding norm by hand, and the logits are Forward's.
	C := Tiny.Channels
	var s float64
	for i := 0; i < C; i++ {
		v := float64(m.Params.Wte[ids[5]*C+i] + m.Params.Wpe[5*C+i])
		s += v * v
	}
	if math.Abs(tr.Norms[0][5]-math.Sqrt(s)) > 1e-6 {
		t.Errorf("embedding norm at position 5: %v, by hand %v", tr.Norms[0][5], math.Sqrt(s))
	}
	out, err := m.Forward([][]int{ids}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(tr.Logits, out.Logits); d != 0 {
		t.Errorf("trace logits differ from Forward's by %g", d)
	}
	h := tr.HTML()
	for _, want := range []string{"<table", "block 2", "ln_f", "attention of position 27"} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if _, err := m.Trace(ids, TraceOptions{Position: 30}); err == nil {
		t.Errorf("position 30 of 30 traced without error")
	}
}
