package viz_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/gptnotes/gptnotes/viz"
)

func ExampleLossCurve() {
	// A made-up run: the loss falls from ln 4096 towards 2 nats, with seeded noise.
	rng := rand.New(rand.NewPCG(3, 4))
	var train, val []viz.LossPoint
	for step := 0; step <= 2000; step += 10 {
		l := 2 + (math.Log(4096)-2)*math.Exp(-float64(step)/250) + 0.08*rng.NormFloat64()
		train = append(train, viz.LossPoint{Step: step, Loss: l})
		if step%200 == 0 {
			val = append(val, viz.LossPoint{Step: step, Loss: 2.15 + (math.Log(4096)-2.15)*math.Exp(-float64(step)/250)})
		}
	}
	if err := viz.Save(viz.LossCurve(train, val, 4096), "testdata/loss.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d train points, %d validation points, last validation loss %.2f\n", len(train), len(val), val[len(val)-1].Loss)
	// Output:
	// 201 train points, 11 validation points, last validation loss 2.15
}
