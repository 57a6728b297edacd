package viz_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

func ExampleLossCurve() {
	// A made-up run shaped like a Trainer's History: the loss falls from ln 4096 towards 2
	// nats, with seeded noise; the validation loss every 200 steps.
	rng := rand.New(rand.NewPCG(3, 4))
	var history []gpt.StepResult
	for step := 1; step <= 2000; step += 1 {
		r := gpt.StepResult{Step: step, Steps: 2000, ValLoss: math.NaN(),
			Loss: 2 + (math.Log(4096)-2)*math.Exp(-float64(step)/250) + 0.08*rng.NormFloat64()}
		if step%200 == 0 {
			r.ValLoss = 2.15 + (math.Log(4096)-2.15)*math.Exp(-float64(step)/250)
		}
		history = append(history, r)
	}
	if err := viz.Save(viz.LossCurve(history, 4096), "testdata/loss.png"); err != nil {
		log.Fatal(err)
	}
	last := history[len(history)-1]
	fmt.Printf("%d steps, last validation loss %.2f\n", len(history), last.ValLoss)
	// Output:
	// 2000 steps, last validation loss 2.15
}
