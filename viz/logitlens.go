package viz

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gptnotes/gptnotes/gpt"
)

// LogitLens draws a gpt.LogitLens as a grid: one row per stage of the residual stream
// (the embeddings at the bottom, the last block at the top, the order the stream flows),
// one column per input position, each cell labelled with the token that stage would
// predict next and shaded by its probability (white 0, dark blue 1). Reading a column
// upwards shows where in the depth the model settles on its answer.
func LogitLens(lens *gpt.LogitLens) (*plot.Plot, error) {
	S := len(lens.Top)
	if S == 0 || len(lens.Top[0]) == 0 {
		return nil, fmt.Errorf("viz: logit lens: no stages")
	}
	T := len(lens.Top[0])
	g := lensGrid{lens: lens, T: T}
	p := plot.New()
	p.Title.Text = "logit lens: the next token read from each stage"
	p.X.Label.Text = "input position"
	p.Y.Label.Text = "stage"
	h := plotter.NewHeatMap(g, whiteToBlue(64))
	h.Min, h.Max = 0, 1
	p.Add(h)

	var xs, ys []float64
	var texts []string
	for s, row := range lens.Top {
		for t, cs := range row {
			if len(cs) == 0 {
				return nil, fmt.Errorf("viz: logit lens: stage %d position %d has no candidates", s, t)
			}
			xs, ys = append(xs, float64(t)), append(ys, float64(s))
			texts = append(texts, lensToken(lens, cs[0].ID))
		}
	}
	l := labels(p, xs, ys, texts, color.Black)
	l.Offset = vg.Point{}
	for i := range l.TextStyle {
		l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
		if lens.Top[int(ys[i])][int(xs[i])][0].Prob > 0.6 { // light text on dark cells
			l.TextStyle[i].Color = color.White
		}
	}
	inputs := make([]string, T)
	for t := range inputs {
		inputs[t] = strconv.Itoa(t)
		if t < len(lens.IDs) {
			inputs[t] = lensToken(lens, lens.IDs[t])
		}
	}
	p.X.Tick.Marker = namedTicks(inputs)
	p.Y.Tick.Marker = namedTicks(lens.Layers)
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = -1, -0.5
	return p, nil
}

// lensToken is a token as quoted text, or its id when the lens has no decoder.
func lensToken(lens *gpt.LogitLens, id int) string {
	if lens.Decoder == nil {
		return strconv.Itoa(id)
	}
	return strconv.Quote(lens.Decoder.Decode([]int{id}))
}

// lensGrid is the top-1 probability of each (stage, position) as gonum's GridXYZ, stage 0
// (the embeddings) in the bottom row.
type lensGrid struct {
	lens *gpt.LogitLens
	T    int
}

func (g lensGrid) Dims() (c, r int)   { return g.T, len(g.lens.Top) }
func (g lensGrid) Z(c, r int) float64 { return g.lens.Top[r][c][0].Prob }
func (g lensGrid) X(c int) float64    { return float64(c) }
func (g lensGrid) Y(r int) float64    { return float64(r) }
