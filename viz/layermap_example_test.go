package viz_test

import (
	"fmt"
	"log"
	"math"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

func ExampleLayerMap() {
	// A made-up patching map of 4 layers × 6 positions: the information sits at position 2
	// early and moves to the last position in the later layers.
	lm := &gpt.LayerMap{Title: "patching hook_resid_pre: logit difference recovered", Columns: "position",
		Labels: []string{`"\t"`, `"for"`, `" i"`, `" :="`, `" 0"`, `";"`}}
	for l := 0; l < 4; l++ {
		row := make([]float64, 6)
		row[2] = math.Max(0, 1-float64(l)/2)
		row[5] = math.Min(1, float64(l)/2)
		row[3] = -0.1 * float64(l)
		lm.Values = append(lm.Values, row)
	}
	p, err := viz.LayerMap(lm)
	if err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(p, "testdata/layermap.png"); err != nil {
		log.Fatal(err)
	}
	_, err = viz.LayerMap(&gpt.LayerMap{})
	fmt.Println(err)
	// Output:
	// viz: layer map: no values
}
