package viz

import (
	"fmt"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gptnotes/gptnotes/gpt"
)

// TopTokens draws the next-token distribution as a bar chart: the candidates (from gpt.Ranked)
// with their probabilities, the most probable at the top. d turns ids into text (a tokenizer);
// nil labels the bars by id. The study: after "The capital of France is", " the" 8.5% and
// " Paris" fifth at 3.2%.
func TopTokens(cs gpt.Candidates, d gpt.Decoder, title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "probability (%)"
	n := len(cs)
	vals := make(plotter.Values, n)
	names := make([]string, n)
	for i, c := range cs {
		// Bottom to top: the most probable is the last bar, drawn at the top.
		j := n - 1 - i
		vals[j] = 100 * c.Prob
		if d != nil {
			names[j] = strconv.Quote(d.Decode([]int{c.ID}))
		} else {
			names[j] = fmt.Sprintf("id %d", c.ID)
		}
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(12))
	if err != nil {
		p.Title.Text += fmt.Sprintf(" (viz: %v)", err)
		return p
	}
	bars.Horizontal = true
	bars.Color = colorAt(0)
	bars.LineStyle.Width = 0
	p.Add(plotter.NewGrid(), bars)
	p.NominalY(names...)
	p.X.Min = 0
	// The probability at the end of each bar.
	xs := make([]float64, n)
	ys := make([]float64, n)
	texts := make([]string, n)
	for j, v := range vals {
		xs[j], ys[j], texts[j] = v, float64(j), fmt.Sprintf("%.1f%%", v)
	}
	l := labels(p, xs, ys, texts, studyColor)
	for i := range l.TextStyle {
		l.TextStyle[i].YAlign = draw.YCenter // beside the bar, not above it
	}
	if n > 0 {
		p.X.Max = vals[n-1] * 1.2
	}
	return p
}
