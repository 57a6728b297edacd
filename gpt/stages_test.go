package gpt

import "testing"

// MeasureDecodeStages returns every stage in the order of a step, with the bytes each must
// read, and a step no faster than its forward (each step's time holds its forward's).
func TestMeasureDecodeStages(t *testing.T) {
	for _, p := range []Precision{FP32, BF16} {
		m := newTestModel(t, allocConfig, 29)
		size := 4
		if p == BF16 {
			m, size = m.WithPrecision(BF16), 2
		}
		d, err := MeasureDecodeStages(m, 5, 4)
		if err != nil {
			t.Fatal(err)
		}
		cfg := allocConfig
		C, L, V := cfg.Channels, cfg.Layers, cfg.VocabSize
		want := []struct {
			name  string
			bytes int
		}{
			{StageStep, -1}, {StageForward, -1}, {StageBlocks, L * 12 * C * C * size}, {StageAttn, -1},
			{StageNorm, 0}, {StageOutput, V * C * size}, {StageRest, 0}, {StageOwnWork, 0},
		}
		if len(d.Stages) != len(want) {
			t.Fatalf("%v: %d stages, want %d: %+v", p, len(d.Stages), len(want), d.Stages)
		}
		for i, w := range want {
			s := d.Stages[i]
			if s.Name != w.name || (w.bytes >= 0 && s.Bytes != w.bytes) {
				t.Errorf("%v: stage %d is %q reading %d bytes, want %q reading %d", p, i, s.Name, s.Bytes, w.name, w.bytes)
			}
			if s.Name != StageRest && s.Seconds <= 0 {
				t.Errorf("%v: %q took %g s", p, s.Name, s.Seconds)
			}
		}
		if d.Stages[0].Seconds < d.Stages[1].Seconds {
			t.Errorf("%v: the step's median %g s is under its forward's %g s", p, d.Stages[0].Seconds, d.Stages[1].Seconds)
		}
		// Attention reads the keys and values of the median step: 2·L·K·C numbers, K in 7…9.
		if a := d.Stages[3].Bytes; a < 2*L*7*C*size || a > 2*L*9*C*size {
			t.Errorf("%v: attention reads %d bytes, want the cache of 7-9 positions", p, a)
		}
		// The stream probe read the model's weights in whole 1,024-float rows, and each step
		// was put against its read: a fraction, its quartiles around it.
		pr := d.Paired
		if wb := m.WeightBytes(); pr.Bytes > wb || pr.Bytes <= wb-4*1024 || pr.Seconds <= 0 {
			t.Errorf("%v: the probe read %d bytes in %g s, want the %d of the weights in whole rows", p, pr.Bytes, pr.Seconds, wb)
		}
		if !(0 < pr.FractionLow && pr.FractionLow <= pr.Fraction && pr.Fraction <= pr.FractionHigh) {
			t.Errorf("%v: paired fraction %g, quartiles %g and %g: want 0 < low ≤ median ≤ high", p, pr.Fraction, pr.FractionLow, pr.FractionHigh)
		}
	}
	if _, err := MeasureDecodeStages(newTestModel(t, allocConfig, 29), 250, 10); err == nil {
		t.Error("260 positions in a block of 256: no error")
	}
}
