package interp_test

import (
	"fmt"
	"log"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/interp"
)

// A freshly initialised model attends almost uniformly: the query at t spreads 1/(t+1)
// over its t+1 keys. That is the floor every score is read against. On "A B C A B C" the
// previous-token score is (1/2 + 1/3 + … + 1/6)/6 = 0.24, and the duplicate-token and
// induction scores (1/4 + 1/5 + 1/6)/6 = 0.10: queries 3, 4 and 5 have one target each.
func ExampleScoreHeads() {
	m, err := gpt.New(gpt.Config{VocabSize: 16, BlockSize: 8, Layers: 1, Heads: 1, Channels: 4})
	if err != nil {
		log.Fatal(err)
	}
	m.Init(1, true)
	ids := []int{1, 2, 3, 1, 2, 3}
	for _, d := range []interp.Detector{interp.PreviousToken, interp.DuplicateToken, interp.Induction} {
		lm, err := interp.ScoreHeads(m, [][]int{ids}, d, interp.ScoreOptions{})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-15s %.2f\n", d.Name, lm.Values[0][0])
	}
	fmt.Println(interp.Induction.Pattern(ids)[4]) // query 4 ("B") looks at key 2, after the earlier "B"
	// Output:
	// previous token  0.24
	// duplicate token 0.10
	// induction       0.10
	// [false false true false false false]
}

// A freshly initialised model fails the gate: it predicts the second copy of random
// tokens no better than the first (both near ln 64 = 4.16 nats), and no head prefers the
// token after an earlier copy.
func ExampleInductionGate() {
	m, err := gpt.New(gpt.Config{VocabSize: 64, BlockSize: 64, Layers: 2, Heads: 2, Channels: 16})
	if err != nil {
		log.Fatal(err)
	}
	m.Init(1, true)
	g, err := interp.InductionGate(m, interp.GateOptions{Seqs: 4, N: 10, BOS: 0, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("loss %.1f → %.1f nats, best induction score %.2f, passes: %v\n", g.FirstLoss, g.SecondLoss, g.InductionMax, g.Pass())
	// Output:
	// loss 4.2 → 4.2 nats, best induction score 0.06, passes: false
}
