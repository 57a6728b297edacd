package viz

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/gptnotes/gptnotes/gpt"
)

// LossCurve draws a training run's loss against the step: every step's training loss and,
// where it was measured, the validation loss (a Trainer's History). A dashed line at ln V
// marks where an untrained model starts, a uniform guess over V tokens; vocab 0 leaves it out.
// In a notebook, redraw it from the Trainer's OnStep to watch the run.
func LossCurve(history []gpt.StepResult, vocab int) *plot.Plot {
	p := newPlot("training loss", "step", "loss (nats)")
	p.Legend.Left = false
	var xs, ys, vx, vy []float64
	for _, r := range history {
		xs, ys = append(xs, float64(r.Step)), append(ys, r.Loss)
		if !math.IsNaN(r.ValLoss) {
			vx, vy = append(vx, float64(r.Step)), append(vy, r.ValLoss)
		}
	}
	if len(xs) > 0 {
		line(p, "train", xs, ys, 0, false)
	}
	if len(vx) > 0 {
		line(p, "validation", vx, vy, 1, false)
		points(p, "", vx, vy, colorAt(1), circle)
	}
	if vocab > 0 && len(xs) > 0 {
		lnV := math.Log(float64(vocab))
		hline(p, fmt.Sprintf("ln %d = %.2f (uniform guess)", vocab, lnV), xs[0], xs[len(xs)-1], lnV, studyColor, true)
		p.Y.Max = 1.12 * lnV
	}
	p.Y.Min = 0
	p.Legend.YOffs = -vg.Points(22)
	if n := len(history); n > 0 {
		p.X.Tick.Marker = stepTicks(history[n-1].Step)
	}
	return p
}
