package gpt

import (
	"fmt"
	"math"
)

// Schedule is nanoGPT's learning-rate schedule: a linear warmup to MaxLR, then a cosine
// decay to MinLR at step Decay, and MinLR after that.
//
//	Schedule{MaxLR: 6e-4, MinLR: 6e-5, Warmup: 100, Decay: 1000}
//	LR(0) = 6e-6, LR(99) = 6e-4 ·100/101, LR(100) = 6e-4, LR(550) = 3.3e-4, LR(1000) = 6e-5
type Schedule struct {
	MaxLR  float64 // peak learning rate, e.g. 6e-4
	MinLR  float64 // floor, e.g. MaxLR/10
	Warmup int     // steps of linear warmup, e.g. 100
	Decay  int     // step at which the cosine reaches MinLR, usually the number of steps
}

// LR is the learning rate for step (counted from 0).
func (s Schedule) LR(step int) float64 {
	if step < s.Warmup {
		return s.MaxLR * float64(step+1) / float64(s.Warmup+1)
	}
	if step >= s.Decay {
		return s.MinLR
	}
	ratio := float64(step-s.Warmup) / float64(s.Decay-s.Warmup)
	coeff := 0.5 * (1 + math.Cos(math.Pi*ratio)) // 1 → 0
	return s.MinLR + coeff*(s.MaxLR-s.MinLR)
}

func (s Schedule) String() string {
	return fmt.Sprintf("lr %.3g warmup %d steps, cosine to %.3g at step %d", s.MaxLR, s.Warmup, s.MinLR, s.Decay)
}
