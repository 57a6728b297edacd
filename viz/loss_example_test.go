package viz_test

import (
	"fmt"
	"log"
	"math"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
	"github.com/gptnotes/gptnotes/viz/internal/golden"
)

// A real run (testdata/loss.json, go run ./viz/internal/goldendata loss): a two-block model
// trained for 300 steps on Go's strings package with the shipped model's tokenizer.
func ExampleLossCurve() {
	var run golden.Loss
	if err := golden.Read("loss", &run); err != nil {
		log.Fatal(err)
	}
	var history []gpt.StepResult
	for _, s := range run.Steps {
		r := gpt.StepResult{Step: s.Step, Steps: s.Steps, Loss: s.Loss, ValLoss: math.NaN()}
		if s.ValLoss != nil {
			r.ValLoss = *s.ValLoss
		}
		history = append(history, r)
	}
	if err := viz.Save(viz.LossCurve(history, run.Vocab), "testdata/loss.png"); err != nil {
		log.Fatal(err)
	}
	last := history[len(history)-1]
	fmt.Printf("%d steps, last validation loss %.2f\n", len(history), last.ValLoss)
	// Output:
	// 300 steps, last validation loss 5.27
}
