package interp

import (
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
)

// The steering hook adds Coeff·Vector to the stream at its layer: the stream entering the
// next stage of a run with it equals the plain stream plus the vector, at every position
// of the first block it reaches.
func TestSteeringHook(t *testing.T) {
	m, ref := readReference(t)
	v, err := SteeringVector(m, ref.Repeated[:5], ref.Repeated[5:9], 1)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Accumulated(m, ref.Repeated[:5], -1)
	if err != nil {
		t.Fatal(err)
	}
	minus, err := Accumulated(m, ref.Repeated[5:9], -1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range v {
		if d := plain[1][i] - minus[1][i] - v[i]; d > 1e-6 || d < -1e-6 {
			t.Fatalf("vector[%d] = %g, want %g", i, v[i], plain[1][i]-minus[1][i])
		}
	}
	s := Steering{Layer: 1, Vector: v, Coeff: 2}
	var got []float32
	hooks := []gpt.Hook{s.Hook(), {Name: "blocks.1.hook_resid_pre", Fn: func(a *gpt.Activation) { got = append(got[:0], a.Data...) }}}
	if _, err := m.RunWithHooks(ref.Repeated[:5], hooks...); err != nil {
		t.Fatal(err)
	}
	C := m.Config.Channels
	want := make([]float32, C)
	for i := range want {
		want[i] = plain[1][i] + 2*v[i]
	}
	if d := maxAbsDiff(t, got[4*C:], want); d > 1e-5 {
		t.Errorf("the steered stream at the last position differs from plain + 2·vector by %.3g", d)
	}
}
