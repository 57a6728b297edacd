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
)

// newPlot starts a figure with a title, axis labels and a light grid.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	return p
}

// logY puts the y axis on a log scale with powers-of-ten ticks.
func logY(p *plot.Plot) {
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = powersOfTen{}
}

// powersOfTen marks a log axis at every power of ten, labelled 0.001, 0.01 … 1000, or 1e-05
// and 1e+06 past those, with unlabelled minor ticks at 2…9 times each.
type powersOfTen struct{}

func (powersOfTen) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	if min <= 0 || max <= 0 {
		return ts
	}
	for k := int(math.Floor(math.Log10(min))); k <= int(math.Ceil(math.Log10(max))); k++ {
		v := math.Pow10(k)
		if v >= min && v <= max {
			label := strconv.FormatFloat(v, 'f', -1, 64)
			if k < -3 || k > 5 {
				label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ts = append(ts, plot.Tick{Value: v, Label: label})
		}
		for m := 2; m <= 9; m++ {
			if w := float64(m) * v; w >= min && w <= max {
				ts = append(ts, plot.Tick{Value: w})
			}
		}
	}
	return ts
}

// line adds a solid (dash 0) or dashed line through xs, ys, in colour i, named in the legend.
func line(p *plot.Plot, name string, xs, ys []float64, i int, dashed bool) *plotter.Line {
	pts := make(plotter.XYs, len(xs))
	for k := range xs {
		pts[k] = plotter.XY{X: xs[k], Y: ys[k]}
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		panic(fmt.Sprintf("viz: line %q: %v", name, err)) // only NaN/Inf points reach here
	}
	l.Color = colorAt(i)
	l.Width = vg.Points(1.5)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	p.Add(l)
	if name != "" {
		p.Legend.Add(name, l)
	}
	return l
}

// points adds glyphs at xs, ys: filled circles in colour i, or (study) grey crosses.
func points(p *plot.Plot, name string, xs, ys []float64, c color.Color, shape draw.GlyphDrawer) *plotter.Scatter {
	pts := make(plotter.XYs, len(xs))
	for k := range xs {
		pts[k] = plotter.XY{X: xs[k], Y: ys[k]}
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		panic(fmt.Sprintf("viz: points %q: %v", name, err))
	}
	s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: shape}
	if shape == studyGlyph {
		s.GlyphStyle.Radius = vg.Points(5)
	}
	p.Add(s)
	if name != "" {
		p.Legend.Add(name, s)
	}
	return s
}

// labels writes texts at xs, ys, shifted right of the point.
func labels(p *plot.Plot, xs, ys []float64, texts []string, c color.Color) *plotter.Labels {
	pts := make(plotter.XYs, len(xs))
	for k := range xs {
		pts[k] = plotter.XY{X: xs[k], Y: ys[k]}
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: texts})
	if err != nil {
		panic(fmt.Sprintf("viz: labels: %v", err))
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Color = c
		l.TextStyle[i].Font.Size = vg.Points(8)
		l.TextStyle[i].YAlign = draw.YBottom
	}
	l.Offset = vg.Point{X: vg.Points(5)}
	p.Add(l)
	return l
}

// hline draws a horizontal reference line at y across [x0, x1].
func hline(p *plot.Plot, name string, x0, x1, y float64, c color.Color, dashed bool) {
	l, _ := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
	l.Color = c
	l.Width = vg.Points(1)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	p.Add(l)
	if name != "" {
		p.Legend.Add(name, l)
	}
}

// vline draws a vertical reference line at x across [y0, y1].
func vline(p *plot.Plot, x, y0, y1 float64, c color.Color) {
	l, _ := plotter.NewLine(plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}})
	l.Color = c
	l.Width = vg.Points(1)
	l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
	p.Add(l)
}

// intTicks labels every integer position of a nominal axis with names.
type namedTicks []string

func (n namedTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for i, s := range n {
		if float64(i) >= min-0.5 && float64(i) <= max+0.5 {
			ts = append(ts, plot.Tick{Value: float64(i), Label: s})
		}
	}
	return ts
}

// Ratio writes a ratio the way the study does: 36.9 → "37×", 2.93 → "2.9×".
func Ratio(r float64) string {
	switch {
	case r >= 9.95:
		return fmt.Sprintf("%.0f×", r)
	default:
		return fmt.Sprintf("%.1f×", r)
	}
}

// circle marks a measured point.
var circle = draw.CircleGlyph{}

// studyGlyph marks the study's own figure on a plot: a grey cross.
var studyGlyph = draw.CrossGlyph{}

// ticksAt marks an axis at the given values, labelled as integers.
type ticksAt []float64

func (t ticksAt) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for _, v := range t {
		if v >= min && v <= max {
			ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
		}
	}
	return ts
}

// legendAbove moves the legend of n entries out of the data area, into a band between the
// title and the data, so no axis has to be stretched to make room for it.
func legendAbove(p *plot.Plot, n int) {
	h := vg.Length(n) * (p.Legend.TextStyle.Rectangle("Ég").Max.Y + p.Legend.Padding)
	p.Title.Padding += h
	p.Legend.Top = true
	p.Legend.YOffs = h
}

// stepTicks marks a step axis of n steps at whole steps: 1 and every 2, 5, 10, 20, 50 … (at
// most about six labels), so a count never reads as a fraction.
func stepTicks(n int) ticksAt {
	every := 1
	for _, e := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000} {
		every = e
		if n/e <= 6 {
			break
		}
	}
	ts := ticksAt{1}
	for v := every; v <= n; v += every {
		if v > 1 {
			ts = append(ts, float64(v))
		}
	}
	return ts
}
