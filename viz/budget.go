package viz

import (
	"fmt"
	"math"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/study/reference"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// CacheBudget draws, for each model of budget (only its Rows are used), the KV-cache bytes of a batch of 1…maxBatch sequences
// against the bytes of the weights, one line per number format; where the cache line crosses
// the weights is the batch at which the caches weigh as much as the model (the study: GPT-2 XL
// in bf16, ≈10 sequences = 3.1 GB of weights).
func CacheBudget(budget gpt.CacheBudget, maxBatch int) *Grid {
	var models []string
	byModel := map[string][]gpt.BudgetRow{}
	for _, b := range budget.Rows {
		if _, ok := byModel[b.Name]; !ok {
			models = append(models, b.Name)
		}
		byModel[b.Name] = append(byModel[b.Name], b)
	}
	var plots []*plot.Plot
	for _, m := range models {
		p := newPlot("GPT-2 "+m, "batch (sequences)", "GB")
		xs := make([]float64, maxBatch)
		for i := range xs {
			xs[i] = float64(i + 1)
		}
		var lbx, lby []float64
		var lbt []string
		for i, b := range byModel[m] {
			ys := make([]float64, maxBatch)
			for k := range ys {
				ys[k] = xs[k] * float64(b.PerSequence) / 1e9
			}
			line(p, fmt.Sprintf("KV cache %s (%s/seq)", b.Format, gpt.MB(b.PerSequence)), xs, ys, i, false)
			w := float64(b.Weights) / 1e9
			hline(p, fmt.Sprintf("weights %s (%s)", b.Format, gpt.MB(b.Weights)), 1, float64(maxBatch), w, colorAt(i), true)
			if c := b.Equal; c <= float64(maxBatch) {
				vline(p, c, 0, w, colorAt(i))
				lbx, lby = append(lbx, c), append(lby, w)
				lbt = append(lbt, fmt.Sprintf("≈%.1f seqs", c))
			}
		}
		if len(lbx) > 0 {
			labels(p, lbx, lby, lbt, studyColor)
		}
		p.Y.Min = 0
		p.X.Tick.Marker = batchTicks(maxBatch)
		if m == "xl" {
			// The study's figure: XL in bf16, ≈10 sequences weigh the 3.1 GB of weights.
			points(p, fmt.Sprintf("study: XL bf16, %d seqs ≈ %g GB", reference.XLSequences, reference.XLWeightsGB),
				[]float64{reference.XLSequences}, []float64{reference.XLWeightsGB}, studyColor, studyGlyph)
		}
		plots = append(plots, p)
	}
	return NewGrid("KV cache of a batch against the weights (full context)", 2, plots...)
}

// SliderBudget is the interactive budget: pick a model and a number format, raise the batch
// (1…maxBatch), and watch the cache bar pass the weights. Only budget.Rows are used.
func SliderBudget(budget gpt.CacheBudget, maxBatch int) *Slider {
	var models, dtypes []string
	seen := map[string]bool{}
	find := map[[2]string]gpt.BudgetRow{}
	for _, b := range budget.Rows {
		if !seen["m"+b.Name] {
			seen["m"+b.Name] = true
			models = append(models, b.Name)
		}
		if !seen["d"+b.Format] {
			seen["d"+b.Format] = true
			dtypes = append(dtypes, b.Format)
		}
		find[[2]string{b.Name, b.Format}] = b
	}
	batches := make([]string, maxBatch)
	for i := range batches {
		batches[i] = fmt.Sprint(i + 1)
	}
	s := &Slider{
		Title: "KV cache × batch against the weights",
		Controls: []Control{
			{Label: "model", Values: models, Select: true, Start: len(models) - 1},
			{Label: "dtype", Values: dtypes, Select: true, Start: len(dtypes) - 1},
			{Label: "batch", Values: batches, Start: 0},
		},
	}
	for _, m := range models {
		for _, d := range dtypes {
			b, ok := find[[2]string{m, d}]
			for batch := 1; batch <= maxBatch; batch++ {
				if !ok {
					s.Frames = append(s.Frames, Frame{Caption: fmt.Sprintf("no figures for %s %s", m, d)})
					continue
				}
				s.Frames = append(s.Frames, budgetFrame(b, batch, maxBatch))
			}
		}
	}
	return s
}

// budgetFrame draws two bars, the weights and the caches of batch sequences, on an axis fixed
// for the model so the cache bar visibly grows.
func budgetFrame(b gpt.BudgetRow, batch, maxBatch int) Frame {
	p := plot.New()
	p.X.Label.Text = "GB"
	w := float64(b.Weights) / 1e9
	c := float64(batch) * float64(b.PerSequence) / 1e9
	for i, v := range []float64{w, c} {
		bar, _ := plotter.NewBarChart(plotter.Values{v}, vg.Points(22))
		bar.Horizontal = true
		bar.XMin = float64(i)
		bar.Color = colorAt(i)
		bar.LineStyle.Width = 0
		p.Add(bar)
	}
	p.NominalY("weights", fmt.Sprintf("cache × %d", batch))
	vline(p, w, -0.5, 1.5, studyColor) // the weights' level, for the cache bar to pass
	p.X.Min = 0
	p.X.Max = math.Max(w, float64(maxBatch)*float64(b.PerSequence)/1e9) * 1.05
	p.Add(plotter.NewGrid())
	p.Title.Text = fmt.Sprintf("GPT-2 %s, %s", b.Name, b.Format)
	verdict := "below the weights"
	if c >= w {
		verdict = "past the weights"
	}
	return Frame{
		SVG: SVGOf(p, 5*vg.Inch, 1.9*vg.Inch),
		Caption: fmt.Sprintf("batch %d: caches %s vs weights %s, %s (they cross at ≈%.1f sequences)",
			batch, gpt.MB(int(c*1e9)), gpt.MB(int(w*1e9)), verdict, b.Equal),
	}
}

// batchTicks marks a batch axis at 1 and every 4 sequences up to max: 1, 4, 8, 12, 16.
func batchTicks(max int) ticksAt {
	ts := ticksAt{1}
	for b := 4; b <= max; b += 4 {
		ts = append(ts, float64(b))
	}
	return ts
}
