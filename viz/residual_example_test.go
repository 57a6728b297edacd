package viz_test

import (
	"fmt"
	"log"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
	"github.com/gptnotes/gptnotes/viz/internal/golden"
)

// The growth curves of testdata/residual.json, measured by gpt.ResidualGrowth at width 768
// (go run ./viz/internal/goldendata residual): plain init grows with depth, scaled does not.
func ExampleResidualNorms() {
	var gs []gpt.Growth
	if err := golden.Read("residual", &gs); err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(viz.ResidualNorms(gs), "testdata/residual.png"); err != nil {
		log.Fatal(err)
	}
	for _, g := range gs {
		if g.Seed == 1 {
			fmt.Printf("%2d blocks, scaled %-5v: ‖x_L‖/‖x_0‖ = %6.2f\n", g.Config.Layers, g.Scaled, g.Final())
		}
	}
	// Output:
	// 12 blocks, scaled true : ‖x_L‖/‖x_0‖ =  10.68
	// 12 blocks, scaled false: ‖x_L‖/‖x_0‖ =  54.94
	// 48 blocks, scaled true : ‖x_L‖/‖x_0‖ =  10.72
	// 48 blocks, scaled false: ‖x_L‖/‖x_0‖ = 108.62
}
