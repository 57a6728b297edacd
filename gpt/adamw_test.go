package gpt

import (
	"math"
	"testing"
)

// TestAdamWMatchesReference checks one tensor of each kind against the update rule written
// out in float64, over three steps, and that biases and LayerNorm weights do not decay.
func TestAdamWMatchesReference(t *testing.T) {
	p, err := NewParams(Tiny)
	if err != nil {
		t.Fatal(err)
	}
	p.Init(1, true)
	g, _ := NewParams(Tiny)
	o := NewAdamW(p)
	o.ClipNorm = 0
	for i, ts := range p.Tensors {
		want := len(ts.Shape) >= 2
		if o.Decay[i] != want {
			t.Errorf("%s decays = %v, want %v", ts.Name, o.Decay[i], want)
		}
	}
	// float64 reference state
	w := make([]float64, len(p.Data))
	m := make([]float64, len(p.Data))
	v := make([]float64, len(p.Data))
	for i := range w {
		w[i] = float64(p.Data[i])
	}
	decay := make([]float64, len(p.Data))
	for i, ts := range p.Tensors {
		if o.Decay[i] {
			for j := ts.Offset; j < ts.Offset+ts.Size(); j++ {
				decay[j] = 0.1
			}
		}
	}
	lr := 1e-3
	for step := 1; step <= 3; step++ {
		for i := range g.Data {
			g.Data[i] = float32(math.Sin(float64(i*step))) * 0.01
		}
		if _, err := o.Update(p, g, lr); err != nil {
			t.Fatal(err)
		}
		for i := range w {
			gi := float64(g.Data[i])
			m[i] = 0.9*m[i] + 0.1*gi
			v[i] = 0.95*v[i] + 0.05*gi*gi
			mh := m[i] / (1 - math.Pow(0.9, float64(step)))
			vh := v[i] / (1 - math.Pow(0.95, float64(step)))
			w[i] -= lr * (mh/(math.Sqrt(vh)+1e-8) + decay[i]*w[i])
		}
	}
	var maxDiff float64
	for i := range w {
		maxDiff = math.Max(maxDiff, math.Abs(w[i]-float64(p.Data[i])))
	}
	t.Logf("max |w - reference| after 3 steps: %.3g", maxDiff)
	if maxDiff > 1e-6 {
		t.Errorf("max |w - reference| = %g, want ≤ 1e-6", maxDiff)
	}
}

func TestAdamWClipsToNorm(t *testing.T) {
	p, _ := NewParams(Tiny)
	g, _ := NewParams(Tiny)
	for i := range g.Data {
		g.Data[i] = 1
	}
	o := NewAdamW(p)
	norm, err := o.Update(p, g, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Sqrt(float64(len(g.Data))); math.Abs(norm-want) > 1e-6*want {
		t.Errorf("norm before clipping = %g, want %g", norm, want)
	}
	// after clipping to 1 every element of g was 1/sqrt(n): m = 0.1/sqrt(n)
	want := 0.1 / math.Sqrt(float64(len(g.Data)))
	if got := float64(o.M[0]); math.Abs(got-want) > 1e-6*want {
		t.Errorf("first moment after one clipped step = %g, want %g", got, want)
	}
	g.Data[3] = float32(math.NaN())
	if _, err := o.Update(p, g, 1e-3); err == nil {
		t.Error("Update with a NaN gradient: no error")
	}
}
