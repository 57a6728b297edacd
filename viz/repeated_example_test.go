package viz_test

import (
	"fmt"
	"log"
	"math"

	"github.com/gptnotes/gptnotes/viz"
)

func ExampleRepeatedLoss() {
	// Made-up losses of a model with an induction head on 30 random tokens seen twice: about
	// ln 4096 ≈ 8.3 nats on the first copy, under 1 on the second from its second token on;
	// and the same model with the head ablated, whose second copy is barely better than its first.
	const n = 30
	clean, ablated := make([]float64, 2*n), make([]float64, 2*n)
	for t := range clean {
		wobble := 0.4 * math.Sin(float64(7*t))
		clean[t], ablated[t] = 8.3+wobble, 8.3+wobble
		if t > n {
			clean[t] = 0.6 + 0.3*math.Cos(float64(5*t))
			ablated[t] = 6.5 + wobble
		}
	}
	p, err := viz.RepeatedLoss(n, viz.LossRun{Name: "the model", Loss: clean}, viz.LossRun{Name: "head 1.2 ablated", Loss: ablated})
	if err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(p, "testdata/repeated.png"); err != nil {
		log.Fatal(err)
	}
	_, err = viz.RepeatedLoss(n, viz.LossRun{Name: "short", Loss: clean[:n]})
	fmt.Println(err)
	// Output:
	// viz: repeated loss: run "short" has 30 losses, want 2·30
}
