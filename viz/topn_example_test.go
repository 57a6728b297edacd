package viz_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

// words is a Decoder over a made-up vocabulary, for the examples.
type words []string

func (w words) Decode(ids []int) string {
	s := ""
	for _, id := range ids {
		s += w[id]
	}
	return s
}

func ExampleTopTokens() {
	vocab := words{" the", " a", " located", " Paris", " one", " in", " not", " France", " home", " known", " also", " famous"}
	rng := rand.New(rand.NewPCG(1, 2))
	logits := make([]float32, len(vocab))
	for i := range logits {
		logits[i] = float32(rng.NormFloat64())
	}
	cs, err := gpt.Ranked(logits, 1, 8)
	if err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(viz.TopTokens(cs, vocab, "next token after a made-up prompt"), "testdata/topn.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q %.1f%%\n", vocab.Decode([]int{cs[0].ID}), 100*cs[0].Prob)
	// Output:
	// " not" 33.2%
}
