package viz_test

import (
	"fmt"
	"log"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

func ExampleHeadScores() {
	// Made-up scores of a two-layer model of four heads, the circuit of the induction
	// lesson: a previous-token head in layer 0 (head 2), and in layer 1 an induction head
	// (head 1) that also attends, less, to the duplicate itself.
	kind := func(title string, v [][]float64) *gpt.LayerMap {
		return &gpt.LayerMap{Title: title, Columns: "head", Values: v}
	}
	prev := kind("previous token", [][]float64{{0.05, 0.1, 0.92, 0.2}, {0.03, 0.02, 0.1, 0.15}})
	dup := kind("duplicate token", [][]float64{{0.01, 0.02, 0, 0.05}, {0.1, 0.2, 0.02, 0.35}})
	ind := kind("induction", [][]float64{{0.01, 0.01, 0, 0.02}, {0.05, 0.71, 0.03, 0.1}})
	fig, err := viz.HeadScores(prev, dup, ind)
	if err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(fig, "testdata/headscores.png"); err != nil {
		log.Fatal(err)
	}
	_, err = viz.HeadScores(kind("induction", nil))
	fmt.Println(err)
	// Output:
	// viz: head scores: map 0 ("induction") has no values
}
