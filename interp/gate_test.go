package interp

import (
	"math"
	"testing"
)

// The gate's two losses are the mean cross-entropy over each copy's tokens, computed here
// from every position's logits instead of from two Forward losses.
func TestGateLosses(t *testing.T) {
	m, _ := readReference(t)
	o := GateOptions{Seqs: 3, N: 5, BOS: 0, Seed: 7}
	g, err := InductionGate(m, o)
	if err != nil {
		t.Fatal(err)
	}
	var first, second float64
	for _, s := range RepeatedTokens(m.Config.VocabSize, o, 2) {
		out, err := m.ForwardAll([][]int{s})
		if err != nil {
			t.Fatal(err)
		}
		for p := 0; p < 2*o.N; p++ {
			row := out.Row(0, p)
			mx := math.Inf(-1)
			for _, x := range row {
				mx = math.Max(mx, float64(x))
			}
			sum := 0.0
			for _, x := range row {
				sum += math.Exp(float64(x) - mx)
			}
			nll := mx + math.Log(sum) - float64(row[s[p+1]])
			if p < o.N {
				first += nll / float64(o.N*o.Seqs)
			} else {
				second += nll / float64(o.N*o.Seqs)
			}
		}
	}
	if math.Abs(g.FirstLoss-first) > 1e-4 || math.Abs(g.SecondLoss-second) > 1e-4 {
		t.Errorf("gate losses %.6f, %.6f; per position %.6f, %.6f", g.FirstLoss, g.SecondLoss, first, second)
	}
	if g.Pass() {
		t.Errorf("a random model passes the gate: %+v", g)
	}
}
