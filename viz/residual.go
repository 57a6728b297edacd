package viz

import (
	"fmt"
	"sort"

	"gonum.org/v1/plot"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/study/reference"
)

// ResidualNorms draws how the residual stream grows with depth at init: for each depth and
// init in growths (gpt.ResidualGrowth results; several seeds of one setting are averaged),
// the mean ‖x_l‖/‖x_0‖ after every block l, on a log scale. Scaled init (the residual writes at
// 0.02/√(2L)) keeps the growth near the same ≈11× at 12 and 48 blocks; plain 0.02 lets it grow
// with depth (≈55× and ≈112×). The study's figures are grey crosses at the last block.
func ResidualNorms(growths []gpt.Growth) *plot.Plot {
	type key struct {
		layers int
		scaled bool
	}
	sum := map[key][]float64{}
	seeds := map[key]int{}
	var width, T int
	for _, g := range growths {
		k := key{g.Config.Layers, g.Scaled}
		if sum[k] == nil {
			sum[k] = make([]float64, len(g.Ratio))
		}
		for l, r := range g.Ratio {
			if l < len(sum[k]) {
				sum[k][l] += r
			}
		}
		seeds[k]++
		width, T = g.Config.Channels, g.T
	}
	keys := make([]key, 0, len(sum))
	for k := range sum {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].scaled != keys[j].scaled {
			return !keys[i].scaled
		}
		return keys[i].layers < keys[j].layers
	})
	p := newPlot(fmt.Sprintf("residual stream at init, width %d, %d positions", width, T),
		"blocks applied (0 = the embedding alone)",
		"‖x_l‖ / ‖x_0‖ (log scale)")
	logY(p)
	for _, k := range keys {
		n := float64(seeds[k])
		xs := make([]float64, len(sum[k]))
		ys := make([]float64, len(sum[k]))
		for l := range xs {
			xs[l], ys[l] = float64(l), sum[k][l]/n
		}
		init := "plain 0.02"
		c := 1
		if k.scaled {
			init, c = "scaled 0.02/√(2L)", 0
		}
		dashed := k.layers < 48
		line(p, fmt.Sprintf("%s, %d blocks: %s (%d seeds)", init, k.layers, Ratio(ys[len(ys)-1]), seeds[k]), xs, ys, c, dashed)
	}
	var sx, sy []float64
	var st []string
	for _, s := range reference.ResidualGrowth {
		sx, sy = append(sx, float64(s.Layers)), append(sy, s.Ratio)
		st = append(st, "study "+Ratio(s.Ratio))
	}
	pt := reference.PyTorch.ResidualGrowth
	points(p, fmt.Sprintf("the study (the project's PyTorch baseline: %.2f, %.2f, %.2f, %.2f)", pt[0], pt[1], pt[2], pt[3]), sx, sy, studyColor, studyGlyph)
	labels(p, sx, sy, st, studyColor)
	p.Y.Min = 1
	p.X.Max = 56
	p.X.Tick.Marker = ticksAt{0, 6, 12, 18, 24, 30, 36, 42, 48}
	legendAbove(p, len(keys)+1)
	return p
}
