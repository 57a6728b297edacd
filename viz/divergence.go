package viz

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/study/reference"
)

// floor is where a zero difference is drawn on the log-scale axes of this file: a log
// scale has no 0, and differences below it are invisible at this size anyway.
const floor = 1e-8

func floored(x float64) float64 { return math.Max(x, floor) }

// positive keeps the points whose y is above 0, which a log axis can show: the first step of
// the cached comparison is the same forward in both loops, and its differences are exactly 0.
func positive(xs, ys []float64) (px, py []float64) {
	for i, y := range ys {
		if y > 0 {
			px, py = append(px, xs[i]), append(py, y)
		}
	}
	return px, py
}

// PrecisionDivergence draws the fp32 and bf16 greedy loops of one model side by side: per
// step, the largest logit difference (and with the mean shift removed), against the fp32
// model's top-2 gap; a dotted line marks the step where the tokens split. Once the gap is
// narrower than the difference, the argmax can flip (the study: at the third token, " were
// not working." vs " were not being run on the same system", and they never rejoin). d, if
// not nil, prints the two tokens at the split.
func PrecisionDivergence(c *gpt.PrecisionComparison, d gpt.Decoder) *plot.Plot {
	p := newPlot("fp32 vs bf16, greedy, same weights", "step", "Δ logit (log scale)")
	logY(p)
	p.Legend.Left = false
	var xs, diff, shifted, gap []float64
	for _, s := range c.Steps {
		xs = append(xs, float64(s.N))
		diff = append(diff, floored(s.MaxDiff))
		shifted = append(shifted, floored(s.MaxDiffShifted))
		gap = append(gap, floored(s.Gap))
	}
	line(p, "max |Δlogit| bf16 − fp32", xs, diff, 1, false)
	line(p, "same, mean shift removed", xs, shifted, 0, true)
	line(p, "fp32 top-2 gap", xs, gap, 2, false)
	if c.Split > 0 {
		lo, hi := minMax(append(append(append([]float64{}, diff...), shifted...), gap...))
		vline(p, float64(c.Split), lo, hi, studyColor)
		text := fmt.Sprintf("tokens split at step %d", c.Split)
		if d != nil && c.Split <= len(c.Steps) {
			s := c.Steps[c.Split-1]
			text += fmt.Sprintf(": %s vs %s", strconv.Quote(d.Decode([]int{s.FP32})), strconv.Quote(d.Decode([]int{s.BF16})))
		}
		labels(p, []float64{float64(c.Split)}, []float64{math.Sqrt(lo * hi)}, []string{text}, studyColor)
	} else {
		p.Title.Text += " (tokens never split)"
	}
	p.X.Tick.Marker = stepTicks(len(xs))
	legendAbove(p, 3)
	return p
}

// CachingDifference draws the cached and uncached greedy loops side by side: per step, the
// largest logit difference, the same with the mean shift removed (what softmax sees), and how
// much the top-2 gap moved, against the gap itself. The study's GPT-2 small figures (grey,
// dashed): differences up to 0.011, the gap moved by at most 0.00005, narrowest gap 0.004.
func CachingDifference(c *gpt.CachingComparison) *plot.Plot {
	p := newPlot("cached vs uncached, greedy, same weights", "step", "Δ logit (log scale)")
	logY(p)
	p.Legend.Left = false
	var xs, diff, shifted, moved, gap []float64
	for _, s := range c.Steps {
		xs = append(xs, float64(s.N))
		diff = append(diff, s.MaxDiff)
		shifted = append(shifted, s.MaxDiffShifted)
		moved = append(moved, s.GapChange)
		gap = append(gap, floored(s.Gap))
	}
	series := []struct {
		name   string
		ys     []float64
		color  int
		dashed bool
	}{
		{"max |Δlogit| cached − uncached", diff, 1, false},
		{"same, mean shift removed", shifted, 0, true},
		{"change of the top-2 gap", moved, 3, false},
		{"top-2 gap", gap, 2, false},
	}
	for _, s := range series {
		if px, py := positive(xs, s.ys); len(px) > 0 {
			line(p, s.name, px, py, s.color, s.dashed)
		}
	}
	if n := len(xs); n > 0 {
		x0, x1 := xs[0], xs[n-1]
		g := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
		hline(p, "the study (GPT-2 small), labelled", x0, x1, reference.CachingMaxDiff, studyColor, true)
		hline(p, "", x0, x1, reference.CachingGapMoved, studyColor, true)
		hline(p, "", x0, x1, reference.CachingNarrowest, studyColor, true)
		labels(p, []float64{x0, x0, x0 + 0.55*(x1-x0)},
			[]float64{reference.CachingMaxDiff, reference.CachingGapMoved, reference.CachingNarrowest},
			[]string{"study: max |Δlogit| " + g(reference.CachingMaxDiff), "study: gap moved " + g(reference.CachingGapMoved),
				"study: narrowest gap " + g(reference.CachingNarrowest)}, studyColor)
	}
	if c.NarrowestStep > 0 {
		points(p, fmt.Sprintf("narrowest gap %.4g at step %d", c.NarrowestGap, c.NarrowestStep),
			[]float64{float64(c.NarrowestStep)}, []float64{floored(c.NarrowestGap)}, colorAt(2), draw.CircleGlyph{})
	}
	if c.FirstDiverge > 0 {
		lo, hi := minMax(append(append([]float64{}, diff...), gap...))
		vline(p, float64(c.FirstDiverge), lo, hi, studyColor)
		labels(p, []float64{float64(c.FirstDiverge)}, []float64{math.Sqrt(lo * hi)}, []string{fmt.Sprintf("tokens differ from step %d", c.FirstDiverge)}, studyColor)
	}
	n := 5
	if c.NarrowestStep > 0 {
		n++
	}
	p.X.Tick.Marker = stepTicks(len(xs))
	legendAbove(p, n)
	return p
}

func minMax(xs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}
