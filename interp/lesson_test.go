package interp

import (
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
)

// The committed lesson model shows what notebook 3c teaches: it passes the induction gate on
// the sequences `gptnotes evalmodel --gate-n 15` uses, its previous-token head in layer 0 and its
// induction head in layer 1 (docs/model-card.md, "The lesson model").
func TestLessonModelPassesTheGate(t *testing.T) {
	m, tok, path, err := gpt.Lesson()
	if err != nil {
		t.Skipf("no lesson model: %v", err)
	}
	g, err := InductionGate(m, GateOptions{Seqs: 8, N: 15, BOS: tok.EndTokenID(), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !g.Pass() {
		t.Errorf("%s fails the gate: second copy %.3f of first %.3f nats, induction head %v %.3f, previous-token head %v %.3f",
			path, g.SecondLoss, g.FirstLoss, g.InductionHead, g.InductionMax, g.PrevHead, g.PrevMax)
	}
	if g.PrevHead[0] != 0 || g.InductionHead[0] != 1 {
		t.Errorf("previous-token head in layer %d, induction head in layer %d: want 0 and 1", g.PrevHead[0], g.InductionHead[0])
	}
}
