package viz

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// A LossPoint is one logged loss: the step it was measured after, and the loss in nats.
type LossPoint struct {
	Step int
	Loss float64
}

// LossCurve draws the training loss (and, when val is not empty, the validation loss) against
// the step. A flat line at ln V marks where an untrained model starts (a uniform guess over V
// tokens); vocab 0 leaves it out.
func LossCurve(train, val []LossPoint, vocab int) *plot.Plot {
	p := newPlot("training loss", "step", "loss (nats)")
	p.Legend.Left = false
	xy := func(pts []LossPoint) (xs, ys []float64) {
		for _, q := range pts {
			xs, ys = append(xs, float64(q.Step)), append(ys, q.Loss)
		}
		return
	}
	if len(train) > 0 {
		xs, ys := xy(train)
		line(p, "train", xs, ys, 0, false)
	}
	if len(val) > 0 {
		xs, ys := xy(val)
		line(p, "validation", xs, ys, 1, false)
	}
	if vocab > 0 && len(train) > 0 {
		hline(p, fmt.Sprintf("ln %d = %.2f (uniform guess)", vocab, math.Log(float64(vocab))),
			float64(train[0].Step), float64(train[len(train)-1].Step), math.Log(float64(vocab)), studyColor, true)
	}
	p.Y.Min = 0
	if vocab > 0 {
		p.Y.Max = 1.12 * math.Log(float64(vocab))
	}
	p.Legend.YOffs = -vg.Points(4)
	return p
}
