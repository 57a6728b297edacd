package interp

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/gptnotes/gptnotes/gpt"
)

// The induction gate decides whether a model shows the first lesson of mechanistic
// interpretability ("A Mathematical Framework for Transformer Circuits", ARENA's
// introduction): that a sequence of random tokens seen once is predicted far better the
// second time, and that there is a head that does it and a head that feeds it.
//
// It draws Seqs sequences of N random tokens (uniform over the vocabulary, BOS excluded),
// each after a BOS token, and measures:
//
//   - loss: the mean cross-entropy of predicting the first copy's N tokens, and of the
//     second copy's N tokens in [BOS, r, r]; the gate wants second ≤ first/2.
//   - heads: every head's induction and previous-token score, TransformerLens's
//     detector ("mul", no exclusions), averaged over [BOS, r, r, r, r]; the gate wants
//     one head of each kind ≥ 0.5. Four copies, because the score counts every query: on
//     two copies a perfect induction head scores at most N/(2N+1) < 0.5, the first
//     copy having nothing to repeat; on four it can reach 3N/(4N+1).
//
// The loss of a causal model on the first two copies of [BOS, r, r, r, r] is its loss on
// [BOS, r, r], so the two measurements share their sequences.

// GateOptions are the gate's sequences.
type GateOptions struct {
	Seqs int    // sequences, e.g. 8
	N    int    // random tokens per copy, e.g. 50 (4N+1 must fit the block size)
	BOS  int    // the token before each sequence, e.g. the end-of-text token
	Seed uint64 // the random tokens' seed
}

// Gate is what the induction gate measured, and its verdict.
type Gate struct {
	Options                 GateOptions
	FirstLoss, SecondLoss   float64 // nats per token over each copy of [BOS, r, r]
	Induction, Previous     *gpt.LayerMap
	InductionHead, PrevHead [2]int  // layer, head of the best of each
	InductionMax, PrevMax   float64 // their scores
}

// Pass reports whether the model shows the lesson: second-copy loss at most half the
// first's, an induction head and a previous-token head each scoring ≥ 0.5.
func (g *Gate) Pass() bool {
	return g.SecondLoss <= g.FirstLoss/2 && g.InductionMax >= 0.5 && g.PrevMax >= 0.5
}

// RepeatedTokens returns o.Seqs sequences [BOS, r, …, r] of copies copies of o.N random
// tokens each.
func RepeatedTokens(vocab int, o GateOptions, copies int) [][]int {
	rng := rand.New(rand.NewPCG(o.Seed, 0x5EED))
	seqs := make([][]int, o.Seqs)
	for i := range seqs {
		r := make([]int, o.N)
		for j := range r {
			for r[j] = o.BOS; r[j] == o.BOS; {
				r[j] = rng.IntN(vocab)
			}
		}
		s := []int{o.BOS}
		for range copies {
			s = append(s, r...)
		}
		seqs[i] = s
	}
	return seqs
}

// InductionGate measures m as the comment above says.
func InductionGate(m *gpt.Model, o GateOptions) (*Gate, error) {
	cfg := m.Config
	switch {
	case o.Seqs < 1 || o.N < 2:
		return nil, fmt.Errorf("interp: induction gate: %d sequences of %d tokens, want ≥ 1 of ≥ 2", o.Seqs, o.N)
	case 4*o.N+1 > cfg.BlockSize:
		return nil, fmt.Errorf("interp: induction gate: 4·%d+1 tokens do not fit the block size %d", o.N, cfg.BlockSize)
	case o.BOS < 0 || o.BOS >= cfg.VocabSize:
		return nil, fmt.Errorf("interp: induction gate: BOS %d outside the vocabulary of %d", o.BOS, cfg.VocabSize)
	}
	seqs := RepeatedTokens(cfg.VocabSize, o, 4)
	g := &Gate{Options: o}
	n := o.N
	for _, s := range seqs {
		// position t predicts s[t+1]: the first copy from positions 0 … n-1, the second from n … 2n-1
		first, err := m.Forward([][]int{s[:n]}, [][]int{s[1 : n+1]})
		if err != nil {
			return nil, fmt.Errorf("interp: induction gate: %w", err)
		}
		both, err := m.Forward([][]int{s[:2*n]}, [][]int{s[1 : 2*n+1]})
		if err != nil {
			return nil, fmt.Errorf("interp: induction gate: %w", err)
		}
		f, b := float64(first.Loss), float64(both.Loss)
		g.FirstLoss += f / float64(o.Seqs)
		g.SecondLoss += (2*b - f) / float64(o.Seqs)
	}
	maps, err := ScoreHeadsAll(m, seqs, []Detector{Induction, PreviousToken}, ScoreOptions{})
	if err != nil {
		return nil, fmt.Errorf("interp: induction gate: %w", err)
	}
	g.Induction, g.Previous = maps[0], maps[1]
	g.InductionHead[0], g.InductionHead[1], g.InductionMax = best(g.Induction)
	g.PrevHead[0], g.PrevHead[1], g.PrevMax = best(g.Previous)
	return g, nil
}

// best returns the layer and head of the largest value of lm, and the value.
func best(lm *gpt.LayerMap) (l, h int, v float64) {
	v = lm.Values[0][0]
	for i, row := range lm.Values {
		for j, x := range row {
			if x > v {
				l, h, v = i, j, x
			}
		}
	}
	return l, h, v
}

// Print writes the gate's figures and verdict.
func (g *Gate) Print(w io.Writer) {
	o := g.Options
	verdict := func(ok bool) string {
		if ok {
			return "pass"
		}
		return "FAIL"
	}
	fmt.Fprintf(w, "induction gate: %d sequences of %d random tokens (seed %d) after BOS %d\n", o.Seqs, o.N, o.Seed, o.BOS)
	fmt.Fprintf(w, "  loss, first copy %.3f nats, second copy %.3f (ratio %.2f, want ≤ 0.50): %s\n",
		g.FirstLoss, g.SecondLoss, g.SecondLoss/g.FirstLoss, verdict(g.SecondLoss <= g.FirstLoss/2))
	fmt.Fprintf(w, "  best induction head: layer %d head %d, score %.3f on four copies (want ≥ 0.5, at most %.3f): %s\n",
		g.InductionHead[0], g.InductionHead[1], g.InductionMax, float64(3*o.N)/float64(4*o.N+1), verdict(g.InductionMax >= 0.5))
	fmt.Fprintf(w, "  best previous-token head: layer %d head %d, score %.3f (want ≥ 0.5): %s\n",
		g.PrevHead[0], g.PrevHead[1], g.PrevMax, verdict(g.PrevMax >= 0.5))
	fmt.Fprintf(w, "  gate: %s\n", verdict(g.Pass()))
}
