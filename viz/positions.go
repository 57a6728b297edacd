package viz

import (
	"fmt"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/study/reference"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A PositionCount is how many positions a generation loop pushes through the stack for a
// prompt and a number of new tokens: without a cache every step re-runs the whole context, with
// one every step runs only the new token (the study: 11-token prompt, 256 new → 35,456 vs 266).
type PositionCount struct {
	Prompt, NewTokens int
	Uncached, Cached  int
}

// Ratio is Uncached/Cached, e.g. 133.3 for 256 new tokens.
func (c PositionCount) Ratio() float64 { return float64(c.Uncached) / float64(c.Cached) }

// CountPositions lists gpt.Positions for a prompt of promptLen tokens and each number of new tokens.
func CountPositions(promptLen int, newTokens []int) []PositionCount {
	var cs []PositionCount
	for _, n := range newTokens {
		un, ca := gpt.Positions(promptLen, n)
		cs = append(cs, PositionCount{Prompt: promptLen, NewTokens: n, Uncached: un, Cached: ca})
	}
	return cs
}

// A DecodeTiming is the measured wall time of the two loops for one number of new tokens.
type DecodeTiming struct {
	NewTokens        int
	Uncached, Cached time.Duration
}

// Ratio is Uncached/Cached time, e.g. 5.0 for 256 new tokens in the study.
func (t DecodeTiming) Ratio() float64 { return float64(t.Uncached) / float64(t.Cached) }

// Positions draws, on the left, the positions pushed through the stack against the number of new
// tokens, with and without the cache; on the right, for the measured runs, the position ratio
// beside the time ratio: the uncached loop does 37–261× the work but takes only 3–7× the time,
// because a batch-1 step reads all the weights either way. The study's figures are grey crosses.
func Positions(counts []PositionCount, timings []DecodeTiming) *Grid {
	left := newPlot("positions pushed through the stack", "new tokens", "positions")
	logY(left)
	left.Legend.Top, left.Legend.Left = false, false
	var xs, un, ca []float64
	for _, c := range counts {
		xs = append(xs, float64(c.NewTokens))
		un = append(un, float64(c.Uncached))
		ca = append(ca, float64(c.Cached))
	}
	line(left, "without a cache", xs, un, 1, false)
	line(left, "with a KV cache", xs, ca, 0, false)
	points(left, "study: 35,456 vs 266 at 256", []float64{256, 256}, []float64{35456, 266}, studyColor, studyGlyph)
	left.X.Tick.Marker = ticksAt{1, 64, 128, 256, 384, 512}

	right := newPlot("uncached ÷ cached", "new tokens", "ratio")
	logY(right)
	right.Legend.Top, right.Legend.Left = false, false
	var tx, pr, tr []float64
	var pl, tl []string
	for _, t := range timings {
		for _, c := range counts {
			if c.NewTokens == t.NewTokens {
				tx = append(tx, float64(t.NewTokens))
				pr = append(pr, c.Ratio())
				tr = append(tr, t.Ratio())
				pl = append(pl, Ratio(c.Ratio()))
				tl = append(tl, Ratio(t.Ratio()))
			}
		}
	}
	if len(tx) > 0 {
		line(right, "positions", tx, pr, 1, false)
		points(right, "", tx, pr, colorAt(1), draw.CircleGlyph{})
		labels(right, tx, pr, pl, colorAt(1))
		line(right, "time (measured here)", tx, tr, 0, false)
		points(right, "", tx, tr, colorAt(0), draw.CircleGlyph{})
		labels(right, tx, tr, tl, colorAt(0))
	}
	sp, st := reference.DecodePositionRatios, reference.DecodeTimeRatios
	points(right, fmt.Sprintf("study: %g/%g/%g× and %.1f/%.1f/%.1f×", sp[0], sp[1], sp[2], st[0], st[1], st[2]),
		append(append([]float64{}, reference.DecodeNew...), reference.DecodeNew...),
		append(append([]float64{}, sp...), st...), studyColor, studyGlyph)
	right.Y.Min, right.X.Max = 1, 600
	right.X.Tick.Marker = ticksAt{1, 64, 128, 256, 384, 512}
	return NewGrid("Generation is a loop: work vs time, with and without the KV cache", 2, left, right)
}

// SliderPositions is the interactive version: drag the number of new tokens and watch the two
// position counts part. One frame per count, on fixed axes.
func SliderPositions(counts []PositionCount) *Slider {
	var xs, un, ca []float64
	var values []string
	for _, c := range counts {
		xs = append(xs, float64(c.NewTokens))
		un = append(un, float64(c.Uncached))
		ca = append(ca, float64(c.Cached))
		values = append(values, fmt.Sprint(c.NewTokens))
	}
	s := &Slider{Title: "Positions pushed through the stack",
		Controls: []Control{{Label: "new tokens", Values: values, Start: len(values) / 2}}}
	for i, c := range counts {
		p := newPlot("", "new tokens", "positions")
		line(p, "without a cache", xs[:i+1], un[:i+1], 1, false)
		line(p, "with a KV cache", xs[:i+1], ca[:i+1], 0, false)
		points(p, "", xs[i:i+1], un[i:i+1], colorAt(1), draw.CircleGlyph{})
		points(p, "", xs[i:i+1], ca[i:i+1], colorAt(0), draw.CircleGlyph{})
		labels(p, xs[i:i+1], un[i:i+1], []string{gpt.Commas(c.Uncached)}, colorAt(1))
		labels(p, xs[i:i+1], ca[i:i+1], []string{gpt.Commas(c.Cached)}, colorAt(0))
		p.X.Min, p.X.Max = 0, xs[len(xs)-1]*1.15
		p.Y.Min, p.Y.Max = 0, un[len(un)-1]*1.05
		s.Frames = append(s.Frames, Frame{
			SVG: SVGOf(p, 5*vg.Inch, 3*vg.Inch),
			Caption: fmt.Sprintf("%d-token prompt, %d new tokens: %s positions without a cache, %s with one (%s)",
				c.Prompt, c.NewTokens, gpt.Commas(c.Uncached), gpt.Commas(c.Cached), Ratio(c.Ratio())),
		})
	}
	return s
}
