package check

import (
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
)

// The forward's checks are tested with forwardWay's own forward as the student's: its zero
// value must pass every check (so the reference is GPT-2's forward, to the checks'
// tolerance), and each mistake must fail its part's check and Forward, named.

func TestReferenceForwardPasses(t *testing.T) {
	var right forwardWay
	for _, v := range []*Verdict{
		Embed(right.refEmbed),
		AttentionLayer(right.refAttention),
		MLP(right.refMLP),
		Block(right.refBlock),
		Forward(right.refForward),
	} {
		t.Log(v)
		if !v.OK {
			t.Errorf("the reference forward fails: %v", v)
		}
	}
}

func TestForwardMistakesAreNamed(t *testing.T) {
	parts := []struct {
		ways  []wrongWay
		check func(w forwardWay) *Verdict
	}{
		{embedWrongWays, func(w forwardWay) *Verdict { return Embed(w.refEmbed) }},
		{attentionWrongWays, func(w forwardWay) *Verdict { return AttentionLayer(w.refAttention) }},
		{mlpWrongWays, func(w forwardWay) *Verdict { return MLP(w.refMLP) }},
		{blockWrongWays, func(w forwardWay) *Verdict { return Block(w.refBlock) }},
		{forwardWrongWays, nil},
	}
	for _, part := range parts {
		for _, w := range part.ways {
			name, _, _ := strings.Cut(w.says, ":")
			verdicts := []*Verdict{Forward(w.way.refForward)}
			if part.check != nil {
				verdicts = append(verdicts, part.check(w.way))
			}
			for _, v := range verdicts {
				t.Logf("%s: %v", name, v)
				if v.OK || v.Mistake != w.says || !strings.HasPrefix(v.Err().Error(), "not yet: ") {
					t.Errorf("%s: %s gives %v; want the mistake named", name, v.Op, v)
				}
			}
		}
	}
}

func TestMatMulAgainstLoops(t *testing.T) {
	x := [][]float32{{1, 2, 3}, {-1, 0.5, 2}}
	w := []float32{1, 2, 3, 4, 5, 6} // (3, 2) for MatMul, (2, 3) for MatMulT
	ab := gpt.MatMul(x, w, 2)
	abT := gpt.MatMulT(x, w, 2)
	for n := range x {
		for m := 0; m < 2; m++ {
			var s, sT float32
			for k := 0; k < 3; k++ {
				s += x[n][k] * w[k*2+m]
				sT += x[n][k] * w[m*3+k]
			}
			if ab[n][m] != s || abT[n][m] != sT {
				t.Errorf("row %d column %d: MatMul %v want %v, MatMulT %v want %v", n, m, ab[n][m], s, abT[n][m], sT)
			}
		}
	}
}
