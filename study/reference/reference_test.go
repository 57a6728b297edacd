package reference

import "testing"

// The baseline file is complete: a run of tests/pytorch_baseline.py that dropped a figure
// (or a hand edit that mistyped a key, which DisallowUnknownFields turns into a panic at
// start-up) fails here rather than drawing a zero on a figure.
func TestPyTorchBaselineComplete(t *testing.T) {
	b := PyTorch
	if b.Date == "" || b.Load == "" || b.Scripts == "" || b.Torch == "" {
		t.Errorf("baseline without its provenance: %+v", b)
	}
	if b.Forward1024Seconds <= 0 || b.Decode1023Seconds <= 0 {
		t.Errorf("baseline times must be positive: forward %v s, decode %v s", b.Forward1024Seconds, b.Decode1023Seconds)
	}
	for i, r := range b.TimeRatios {
		if r <= 1 {
			t.Errorf("uncached/cached ratio %d is %v: the cache must save time", i, r)
		}
	}
	for i, g := range b.ResidualGrowth {
		if g <= 1 {
			t.Errorf("residual growth %d is %v, want > 1", i, g)
		}
	}
}
