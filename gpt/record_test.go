package gpt

import (
	"math"
	"slices"
	"testing"
)

// TestRecordEqualsRunWithCache generates with a cached, recording Generator and compares
// every activation it recorded, stitched over the prefill and the cached steps, with an
// uncached RunWithCache over the same tokens.
func TestRecordEqualsRunWithCache(t *testing.T) {
	m, tok, err := Open("../testdata/gopher.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	prompt := tok.Encode("func main() {\n\tfmt.")
	const steps = 6
	g, err := NewGenerator(m, prompt, Greedy, true)
	if err != nil {
		t.Fatal(err)
	}
	g.Record = []string{"**"}
	if _, err := g.Steps(steps); err != nil {
		t.Fatal(err)
	}
	rec, err := g.Recorded()
	if err != nil {
		t.Fatal(err)
	}
	ids := rec.IDs[0]
	if want := g.ids[:len(prompt)+steps-1]; !slices.Equal(ids, want) { // the last token drawn is not forwarded yet
		t.Fatalf("recorded tokens %v, want %v", ids, want)
	}
	_, want, err := m.RunWithCache(ids, "**")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.Names(), want.Names()) {
		t.Fatalf("recorded names\n%v\nwant\n%v", rec.Names(), want.Names())
	}
	worst, at := 0.0, ""
	for _, name := range want.Names() {
		got, w := rec.MustGet(name), want.MustGet(name)
		if !slices.Equal(got.Shape, w.Shape) {
			t.Errorf("%s: shape %v, want %v", name, got.Shape, w.Shape)
			continue
		}
		scale := 1.0
		for _, v := range w.Data {
			if !math.IsInf(float64(v), 0) {
				scale = math.Max(scale, math.Abs(float64(v)))
			}
		}
		for i, v := range w.Data {
			d := 0.0
			if math.IsInf(float64(v), 0) || math.IsInf(float64(got.Data[i]), 0) {
				if got.Data[i] != v {
					d = math.Inf(1)
				}
			} else {
				d = math.Abs(float64(got.Data[i]-v)) / scale
			}
			if d > worst || math.IsNaN(d) {
				worst, at = d, name
			}
		}
	}
	t.Logf("%d activations over %d positions (%d prompt + %d cached steps): largest relative |diff| %.3g, in %s",
		len(want.Names()), len(ids), len(prompt), steps-1, worst, at)
	if worst > 1e-5 || math.IsNaN(worst) {
		t.Errorf("the record differs from RunWithCache by a relative %.3g > 1e-5 in %s", worst, at)
	}
}
