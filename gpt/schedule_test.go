package gpt

import (
	"math"
	"testing"
)

func TestScheduleWarmupThenCosine(t *testing.T) {
	s := Schedule{MaxLR: 6e-4, MinLR: 6e-5, Warmup: 100, Decay: 1000}
	cases := []struct {
		step int
		want float64
	}{
		{0, 6e-4 / 101},
		{99, 6e-4 * 100 / 101},
		{100, 6e-4},
		{550, 6e-5 + 0.5*(6e-4-6e-5)},
		{1000, 6e-5},
		{5000, 6e-5},
	}
	for _, c := range cases {
		if got := s.LR(c.step); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("LR(%d) = %g, want %g", c.step, got, c.want)
		}
	}
	for step := 100; step < 1000; step++ {
		if s.LR(step+1) > s.LR(step) {
			t.Fatalf("LR rises after warmup: LR(%d)=%g < LR(%d)=%g", step, s.LR(step), step+1, s.LR(step+1))
		}
	}
}
