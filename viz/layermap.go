package viz

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"

	"github.com/gptnotes/gptnotes/gpt"
)

// LayerMap draws a gpt.LayerMap — head ablation (layer × head), activation patching
// (layer × position) or direct logit attribution (layer × head) — as a heat map: layer 0
// at the top, red for positive values, blue for negative, white for zero, the colour
// scale symmetric about zero so that equal colours mean equal magnitudes.
func LayerMap(lm *gpt.LayerMap) (*plot.Plot, error) {
	L := len(lm.Values)
	if L == 0 || len(lm.Values[0]) == 0 {
		return nil, fmt.Errorf("viz: layer map: no values")
	}
	cols := len(lm.Values[0])
	for l, row := range lm.Values {
		if len(row) != cols {
			return nil, fmt.Errorf("viz: layer map: layer %d has %d values, layer 0 has %d", l, len(row), cols)
		}
	}
	_, _, top := lm.Max()
	top = math.Abs(top)
	if top == 0 || math.IsNaN(top) {
		top = 1
	}
	p := plot.New()
	p.Title.Text = lm.Title
	p.X.Label.Text = lm.Columns
	p.Y.Label.Text = "layer"
	h := plotter.NewHeatMap(layerGrid{lm.Values}, blueWhiteRed(65))
	h.Min, h.Max = -top, top
	p.Add(h)
	names := lm.Labels
	if len(names) != cols {
		names = positionNames(cols, nil)
	}
	tickLayers(p, L, names)
	if lm.Columns == "position" {
		p.X.Tick.Label.Rotation = math.Pi / 2
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = -1, -0.5
	}
	return p, nil
}

// tickLayers labels a layer × column map: the columns' names along the bottom, the layers
// down the side, layer 0 at the top.
func tickLayers(p *plot.Plot, L int, cols []string) {
	layers := make([]string, L)
	for l := range layers {
		layers[L-1-l] = strconv.Itoa(l)
	}
	p.X.Tick.Marker = namedTicks(cols)
	p.Y.Tick.Marker = namedTicks(layers)
}

// layerGrid is (L, cols) values as gonum's GridXYZ, layer 0 at the top.
type layerGrid struct{ v [][]float64 }

func (g layerGrid) Dims() (c, r int)   { return len(g.v[0]), len(g.v) }
func (g layerGrid) Z(c, r int) float64 { return g.v[len(g.v)-1-r][c] }
func (g layerGrid) X(c int) float64    { return float64(c) }
func (g layerGrid) Y(r int) float64    { return float64(r) }

// blueWhiteRed runs from blue (the most negative) through white (zero) to red.
func blueWhiteRed(n int) palette.Palette {
	r := make(ramp, n)
	for i := range r {
		f := 2*float64(i)/float64(n-1) - 1 // −1 … 1
		if f < 0 {
			r[i] = color.RGBA{uint8(255 + f*(255-33)), uint8(255 + f*(255-102)), uint8(255 + f*(255-172)), 255}
		} else {
			r[i] = color.RGBA{uint8(255 - f*(255-178)), uint8(255 - f*(255-24)), uint8(255 - f*(255-43)), 255}
		}
	}
	return r
}
