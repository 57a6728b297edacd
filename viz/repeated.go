package viz

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
)

// LossRun is one run's loss at each position of a sequence of n random tokens seen twice,
// [BOS, r, r]: Loss[t] is the cross-entropy of predicting token t+1 from the tokens up to t,
// so Loss[0 … n−1] predicts the first copy and Loss[n … 2n−1] the second.
type LossRun struct {
	Name string    // e.g. "the model", "head 1.3 ablated"
	Loss []float64 // (2n)
}

// RepeatedLoss draws the per-position loss of runs on [BOS, r, r] against the position of the
// token predicted (1 … 2n), a dotted line where the second copy starts, and each run's mean
// over each copy in the legend. A model that has learned to copy what it has seen (an
// induction head) predicts the random first copy no better than chance and the second far
// better; with that head ablated, the second copy's loss climbs back up.
func RepeatedLoss(n int, runs ...LossRun) (*plot.Plot, error) {
	if n < 1 || len(runs) == 0 {
		return nil, fmt.Errorf("viz: repeated loss: %d runs of copies of %d tokens, want at least one run of at least 1", len(runs), n)
	}
	p := newPlot(fmt.Sprintf("loss per position, %d random tokens seen twice", n), "position of the token predicted", "loss (nats)")
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, r := range runs {
		if len(r.Loss) != 2*n {
			return nil, fmt.Errorf("viz: repeated loss: run %q has %d losses, want 2·%d", r.Name, len(r.Loss), n)
		}
		xs := make([]float64, 2*n)
		for t, l := range r.Loss {
			if math.IsNaN(l) || math.IsInf(l, 0) {
				return nil, fmt.Errorf("viz: repeated loss: run %q: loss %v at position %d", r.Name, l, t)
			}
			xs[t] = float64(t + 1)
			lo, hi = math.Min(lo, l), math.Max(hi, l)
		}
		first, second := mean(r.Loss[:n]), mean(r.Loss[n:])
		line(p, fmt.Sprintf("%s: first copy %.2f, second %.2f", r.Name, first, second), xs, r.Loss, i, false)
	}
	lo, hi = math.Min(lo, 0), 1.05*hi
	vline(p, float64(n)+0.5, lo, hi, studyColor)
	labels(p, []float64{1, float64(n) + 0.5}, []float64{hi, hi}, []string{"first copy", "second copy"}, studyColor)
	p.Y.Min, p.Y.Max = lo, 1.12*hi
	p.X.Min, p.X.Max = 0.5, float64(2*n)+0.5
	legendAbove(p, len(runs))
	return p, nil
}

// mean is the mean of xs.
func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
