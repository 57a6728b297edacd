package bench

import (
	"math"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
)

// TestBound checks which ceiling bounds a step on both sides of the ridge, in the cache,
// without a peak kernel, and in bf16, whose own peak bounds it where one was measured.
func TestBound(t *testing.T) {
	c := Ceilings{StreamGBs: 40, PeakTotal: 200}                       // ridge 5 FLOP/byte
	c16 := Ceilings{StreamGBs: 40, PeakTotal: 200, BF16PeakTotal: 400} // bf16 ridge 10
	for _, tc := range []struct {
		name         string
		c            Ceilings
		precision    string
		flops, bytes float64
		inLLC        bool
		bound        string
		attainable   float64
	}{
		{"decode: 0.5 FLOP/byte", c, "fp32", 1e9, 2e9, false, BoundStream, 20},
		{"prompt: 100 FLOP/byte", c, "fp32", 1e11, 1e9, false, BoundPeak, 200},
		{"in the cache", c, "fp32", 1e9, 2e9, true, BoundPeakInLLC, 200},
		{"in the cache, past the ridge", c, "fp32", 1e11, 1e9, true, BoundPeak, 200},
		{"no peak kernel", Ceilings{StreamGBs: 40}, "fp32", 1e11, 1e9, false, BoundStreamOnly, 4000},
		{"no peak kernel, in the cache", Ceilings{StreamGBs: 40}, "fp32", 1e9, 2e9, true, BoundNoPeakLLC, 0},
		{"bf16 prompt: its own peak", c16, "bf16", 1e11, 1e9, false, BoundBF16Peak, 400},
		{"bf16 between the ridges: the stream", c16, "bf16", 8e9, 1e9, false, BoundStream, 320},
		{"fp32 between the ridges: the FMA peak", c16, "fp32", 8e9, 1e9, false, BoundPeak, 200},
		{"bf16 decode", c16, "bf16", 1e9, 1e9, false, BoundStream, 40},
		{"bf16 in the cache", c16, "bf16", 1e9, 1e9, true, BoundBF16PeakInLLC, 400},
		{"bf16 without a bf16 peak: the FMA peak", c, "bf16", 1e11, 1e9, false, BoundPeak, 200},
	} {
		r := Roof{FLOPs: tc.flops, Bytes: tc.bytes, Seconds: 1, InLLC: tc.inLLC}
		tc.c.bound(&r, tc.precision)
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
	if r, r0 := c16.RidgeBF16(), c.RidgeBF16(); r != 10 || r0 != 0 {
		t.Errorf("bf16 ridge %g and, without a bf16 peak, %g; want 10 and 0", r, r0)
	}
}

// TestCeilingsBetter checks that the run's two measurements of the ceilings keep the better
// of each, the bf16 peak's too.
func TestCeilingsBetter(t *testing.T) {
	a := Ceilings{StreamGBs: 40, PeakCore: 100, PeakTotal: 150, BF16PeakCore: 250, BF16PeakTotal: 300}
	b := Ceilings{StreamGBs: 30, PeakCore: 110, PeakTotal: 140, BF16PeakCore: 200, BF16PeakTotal: 450}
	got := a.better(b)
	want := Ceilings{StreamGBs: 40, PeakCore: 110, PeakTotal: 150, BF16PeakCore: 250, BF16PeakTotal: 450}
	if got.StreamGBs != want.StreamGBs || got.PeakCore != want.PeakCore || got.PeakTotal != want.PeakTotal ||
		got.BF16PeakCore != want.BF16PeakCore || got.BF16PeakTotal != want.BF16PeakTotal {
		t.Errorf("better: %+v, want %+v", got, want)
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
