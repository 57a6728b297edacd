package viz_test

import (
	"fmt"
	"log"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

func ExampleLogitLens() {
	// A made-up lens of 4 stages over 6 tokens: early stages guess the commonest tokens,
	// later ones settle on the right continuation with growing probability.
	vocab := words{"\t", "if", " err", " !=", " nil", " {", "\n", ".", " :="}
	lens := &gpt.LogitLens{IDs: []int{0, 1, 2, 3, 4, 5}, Layers: []string{"embed", "block 0", "block 1", "block 2"}, Decoder: vocab}
	guesses := [][]int{{7, 7, 6, 7, 6, 7}, {1, 7, 8, 7, 5, 6}, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}}
	for s, row := range guesses {
		var stage []gpt.Candidates
		for t, id := range row {
			stage = append(stage, gpt.Candidates{{Rank: 1, ID: id, Prob: 0.1 + 0.25*float64(s) + 0.02*float64(t)}})
		}
		lens.Top = append(lens.Top, stage)
	}
	p, err := viz.LogitLens(lens)
	if err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(p, "testdata/logitlens.png"); err != nil {
		log.Fatal(err)
	}
	_, err = viz.LogitLens(&gpt.LogitLens{})
	fmt.Println(err)
	// Output:
	// viz: logit lens: no stages
}
