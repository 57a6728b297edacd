package gpt

import (
	"math"
	"testing"
)

// RunWithGradients' gradient at each hook point matches central finite differences of
// the metric, each value perturbed through a hook in RunWithHooks.
func TestRunWithGradientsFiniteDifferences(t *testing.T) {
	m, err := New(Tiny)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(7, true)
	ids := []int{5, 17, 3, 99, 5, 17, 42, 8}
	right, wrong := 3, 99
	metric := func(out *Output) float64 {
		row := out.Row(0, out.T-1)
		return float64(row[right]) - float64(row[wrong])
	}
	_, grads, err := m.RunWithGradients(ids, func(out *Output) []float32 {
		d := make([]float32, len(out.Logits))
		last := (out.T - 1) * out.V
		d[last+right], d[last+wrong] = 1, -1
		return d
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(grads.Names()); got != len(GradientNames)*Tiny.Layers {
		t.Errorf("%d gradients, want %d: %v", got, len(GradientNames)*Tiny.Layers, grads.Names())
	}
	const eps = 1e-2
	for _, name := range grads.Names() {
		g := grads.MustGet(name)
		for _, i := range []int{0, len(g.Data) / 2, len(g.Data) - 1} {
			at := func(delta float32) float64 {
				out, err := m.RunWithHooks(ids, Hook{Name: name, Fn: func(a *Activation) { a.Data[i] += delta }})
				if err != nil {
					t.Fatal(err)
				}
				return metric(out)
			}
			fd := (at(eps) - at(-eps)) / (2 * eps)
			if d := math.Abs(fd - float64(g.Data[i])); d > 1e-2*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s[%d]: gradient %.5f, finite difference %.5f", name, i, g.Data[i], fd)
			}
		}
	}
	if _, _, err := m.RunWithGradients(ids, func(out *Output) []float32 { return nil }, "blocks.0.attn.hook_pattern"); err == nil {
		t.Error("a gradient of hook_pattern, which the backward pass does not hold: no error")
	}
}
