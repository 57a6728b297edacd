package bench

import (
	"math"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
)

// TestBound checks which ceiling bounds a step on both sides of the ridge, in the cache,
// and without a peak kernel.
func TestBound(t *testing.T) {
	c := Ceilings{StreamGBs: 40, PeakTotal: 200} // ridge 5 FLOP/byte
	for _, tc := range []struct {
		name         string
		c            Ceilings
		flops, bytes float64
		inLLC        bool
		bound        string
		attainable   float64
	}{
		{"decode: 0.5 FLOP/byte", c, 1e9, 2e9, false, BoundStream, 20},
		{"prompt: 100 FLOP/byte", c, 1e11, 1e9, false, BoundPeak, 200},
		{"in the cache", c, 1e9, 2e9, true, BoundPeakInLLC, 200},
		{"in the cache, past the ridge", c, 1e11, 1e9, true, BoundPeak, 200},
		{"no peak kernel", Ceilings{StreamGBs: 40}, 1e11, 1e9, false, BoundStreamOnly, 4000},
		{"no peak kernel, in the cache", Ceilings{StreamGBs: 40}, 1e9, 2e9, true, BoundNoPeakLLC, 0},
	} {
		r := Roof{FLOPs: tc.flops, Bytes: tc.bytes, Seconds: 1, InLLC: tc.inLLC}
		tc.c.bound(&r)
		if r.Bound != tc.bound || math.Abs(r.Attainable-tc.attainable) > 1e-9 {
			t.Errorf("%s: %s at %g GFLOP/s, want %s at %g", tc.name, r.Bound, r.Attainable, tc.bound, tc.attainable)
		}
		if want := r.GFLOPs() / tc.attainable; tc.attainable > 0 && math.Abs(r.Fraction-want) > 1e-12 {
			t.Errorf("%s: fraction %g, want %g", tc.name, r.Fraction, want)
		}
	}
	if r := c.Ridge(); r != 5 {
		t.Errorf("ridge %g, want 5", r)
	}
}

// TestCosts checks the FLOP counts against the forward's usual count (2 FLOPs per parameter
// per position for the blocks' products) and a decode step's intensity: about 2 FLOPs per
// 4-byte weight in fp32, twice that in bf16.
func TestCosts(t *testing.T) {
	cfg := gpt.Small
	C, L, V := float64(cfg.Channels), float64(cfg.Layers), float64(cfg.VocabSize)
	flops, bytes := promptCost(cfg, gpt.FP32, 1)
	if want := 2*L*12*C*C + 2*L*C*2 + 2*V*C; flops != want {
		t.Errorf("pp1: %g FLOPs, want %g", flops, want)
	}
	if want := 4*124_439_808 + 2*L*C*4; bytes != want {
		t.Errorf("pp1: %g bytes, want %g", bytes, want)
	}
	one, _ := decodeCost(cfg, gpt.FP32, 1)
	if one != flops {
		t.Errorf("tg1 %g FLOPs, pp1 %g: one step from an empty cache is the same forward", one, flops)
	}
	for _, p := range []gpt.Precision{gpt.FP32, gpt.BF16} {
		f, b := decodeCost(cfg, p, 128)
		if got, want := f/b, 2/elemBytes(p); math.Abs(got/want-1) > 0.05 {
			t.Errorf("tg128 %v: %.3f FLOP/byte, want about %.2f", p, got, want)
		}
	}
}

func TestRateStats(t *testing.T) {
	m, sd := rateStats(10, []float64{1, 0.5})
	if m != 15 || math.Abs(sd-math.Sqrt(50)) > 1e-12 {
		t.Errorf("rates 10 and 20: mean %g sd %g, want 15 and √50", m, sd)
	}
}
