package interp

import (
	"math"
	"testing"
)

// The components add up to the stream at every stage, and through ln_f's scale their
// shares of a logit difference add up to the model's own.
func TestDecompose(t *testing.T) {
	m, ref := readReference(t)
	ids := ref.Repeated
	pos := len(ids) - 2
	acc, err := Accumulated(m, ids, pos)
	if err != nil {
		t.Fatal(err)
	}
	L, NH := m.Config.Layers, m.Config.Heads
	for stage := 0; stage <= L; stage++ {
		cs, err := Decompose(m, ids, stage, pos)
		if err != nil {
			t.Fatal(err)
		}
		if want := 2 + stage*(NH+2); len(cs.Vectors) != want {
			t.Errorf("stage %d: %d components, want %d", stage, len(cs.Vectors), want)
		}
		if d := maxAbsDiff(t, cs.Sum(), acc[stage]); d > 1e-5 {
			t.Errorf("stage %d: the components sum to the stream ± %.3g", stage, d)
		}
	}
	cs, err := Decompose(m, ids, L, pos)
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.ForwardAll([][]int{ids})
	if err != nil {
		t.Fatal(err)
	}
	a, b := ids[pos+1], ids[pos]
	shares, rest, err := cs.Attribution(m, a, b)
	if err != nil {
		t.Fatal(err)
	}
	sum := rest
	for _, s := range shares {
		sum += s
	}
	row := out.Row(0, pos)
	if want := float64(row[a] - row[b]); math.Abs(sum-want) > 1e-4 {
		t.Errorf("the shares sum to %.6f, the logit difference is %.6f", sum, want)
	}
}
