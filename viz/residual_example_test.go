package viz_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

// Made-up growth curves shaped like gpt.ResidualGrowth's (seeded noise), so the golden image
// tests the drawing: the squared norm grows by a fixed share per block, plain init more.
func ExampleResidualNorms() {
	var gs []gpt.Growth
	for _, L := range []int{12, 48} {
		for _, scaled := range []bool{true, false} {
			for seed := uint64(1); seed <= 3; seed++ {
				rng := rand.New(rand.NewPCG(seed, uint64(L)))
				step := 120.0 / float64(2*L) // scaled: the same total growth at any depth
				if !scaled {
					step = 5 + 0.02*float64(L)
				}
				g := gpt.Growth{Config: gpt.Config{Layers: L, Channels: 768}, Seed: seed, Scaled: scaled, T: 64, Ratio: []float64{1}}
				sq := 1.0
				for l := 1; l <= L; l++ {
					sq += step * (1 + 0.1*rng.NormFloat64()) * math.Sqrt(float64(l))
					g.Ratio = append(g.Ratio, math.Sqrt(sq))
				}
				gs = append(gs, g)
			}
		}
	}
	if err := viz.Save(viz.ResidualNorms(gs), "testdata/residual.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d runs; 12 blocks, scaled, seed 1: ‖x_L‖/‖x_0‖ = %.2f\n", len(gs), gs[0].Final())
	// Output:
	// 12 runs; 12 blocks, scaled, seed 1: ‖x_L‖/‖x_0‖ = 12.04
}
