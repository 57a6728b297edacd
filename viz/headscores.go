package viz

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/gptnotes/gptnotes/gpt"
)

// HeadScores draws head scores (interp.ScoreHeadsAll: previous token, duplicate token,
// induction, …), one layer × head map per kind side by side, layer 0 at the top, on the
// one scale from 0 (white) to 1 (dark blue) that every score shares: the fraction of a
// head's attention that goes where a head of that kind would put it.
func HeadScores(maps ...*gpt.LayerMap) (*HeatMaps, error) {
	if len(maps) == 0 {
		return nil, fmt.Errorf("viz: head scores: no maps")
	}
	var plots []*plot.Plot
	for i, lm := range maps {
		L := len(lm.Values)
		if L == 0 || len(lm.Values[0]) == 0 {
			return nil, fmt.Errorf("viz: head scores: map %d (%q) has no values", i, lm.Title)
		}
		NH := len(lm.Values[0])
		for l, row := range lm.Values {
			if len(row) != NH {
				return nil, fmt.Errorf("viz: head scores: %q: layer %d has %d heads, layer 0 has %d", lm.Title, l, len(row), NH)
			}
		}
		p := plot.New()
		p.Title.Text = lm.Title
		p.X.Label.Text = "head"
		p.Y.Label.Text = "layer"
		h := plotter.NewHeatMap(layerGrid{lm.Values}, whiteToBlue(64))
		h.Min, h.Max = 0, 1
		p.Add(h)
		tickLayers(p, L, positionNames(NH, nil))
		plots = append(plots, p)
	}
	return newHeatMaps("head scores", len(plots), "score", plots...), nil
}
