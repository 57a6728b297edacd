package viz

import (
	"bytes"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The size of one figure, as a notebook shows it (the kernel's default for *plot.Plot too).
var (
	Width  = 6 * vg.Inch
	Height = 4 * vg.Inch
)

// The colours of the figures: one per series, readable on white and for the common colour blindnesses
// (Okabe and Ito's palette).
var colors = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{204, 121, 167, 255}, // reddish purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{0, 0, 0, 255},       // black
	color.RGBA{240, 228, 66, 255},  // yellow
}

// studyColor marks the study's own figures on our plots.
var studyColor = color.RGBA{120, 120, 120, 255}

func colorAt(i int) color.Color { return colors[i%len(colors)] }

// A Grid is several plots drawn side by side (Cols per row), as one figure. In a notebook it
// shows as a PNG, like a *plot.Plot; Save writes it as PNG or SVG.
type Grid struct {
	Title  string
	Plots  []*plot.Plot // row-major
	Cols   int          // plots per row, e.g. 2
	Width  vg.Length    // the whole figure, e.g. 10 inches
	Height vg.Length
}

// NewGrid lays out plots in rows of cols, each cell Width×Height/… of the usual figure size.
func NewGrid(title string, cols int, plots ...*plot.Plot) *Grid {
	rows := (len(plots) + cols - 1) / cols
	return &Grid{Title: title, Plots: plots, Cols: cols,
		Width: vg.Length(cols) * 5 * vg.Inch, Height: vg.Length(rows)*3.6*vg.Inch + titleSpace(title)}
}

func titleSpace(title string) vg.Length {
	if title == "" {
		return 0
	}
	return 0.35 * vg.Inch
}

// Draw draws the grid on dc.
func (g *Grid) Draw(dc draw.Canvas) {
	if g.Title != "" {
		sty := plot.New().Title.TextStyle
		sty.Font.Size = vg.Points(13)
		sty.XAlign = draw.XCenter
		sty.YAlign = draw.YTop
		top := dc.Max.Y - vg.Points(6)
		dc.FillText(sty, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: top}, g.Title)
		dc.Max.Y -= titleSpace(g.Title)
	}
	rows := (len(g.Plots) + g.Cols - 1) / g.Cols
	tiles := draw.Tiles{Rows: rows, Cols: g.Cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	plots := make([][]*plot.Plot, rows)
	for r := range plots {
		plots[r] = make([]*plot.Plot, g.Cols)
		for c := range plots[r] {
			if i := r*g.Cols + c; i < len(g.Plots) {
				plots[r][c] = g.Plots[i]
			}
		}
	}
	canvases := plot.Align(plots, tiles, dc)
	for r := range plots {
		for c, p := range plots[r] {
			if p != nil {
				p.Draw(canvases[r][c])
			}
		}
	}
}

// PNG renders the grid at 96 dots per inch.
func (g *Grid) PNG() []byte {
	b, err := encode(g, g.Width, g.Height, "png")
	if err != nil {
		return nil
	}
	return b
}

// String describes the grid for text/plain.
func (g *Grid) String() string { return fmt.Sprintf("<grid %q: %d plots>", g.Title, len(g.Plots)) }

// A Figure draws itself on a canvas: a *plot.Plot or a *Grid, what the figure functions return.
type Figure interface{ Draw(draw.Canvas) }

// encode renders d at w×h as "png" (96 dpi) or "svg".
func encode(d Figure, w, h vg.Length, format string) ([]byte, error) {
	var buf bytes.Buffer
	switch format {
	case "png":
		img := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96))}
		d.Draw(draw.New(img))
		if _, err := img.WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("viz: encode png: %w", err)
		}
	case "svg":
		img := vgsvg.New(w, h)
		d.Draw(draw.New(img))
		if _, err := img.WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("viz: encode svg: %w", err)
		}
	default:
		return nil, fmt.Errorf("viz: encode: unknown format %q, want png or svg", format)
	}
	return buf.Bytes(), nil
}

// Save writes a figure (a *plot.Plot, a *Grid or *HeatMaps) to path, as PNG or SVG by its
// extension; a plot is drawn at the package's Width×Height.
func Save(f Figure, path string) error {
	w, h := Width, Height
	switch g := f.(type) {
	case *Grid:
		w, h = g.Width, g.Height
	case *HeatMaps:
		w, h = g.Width, g.Height
	}
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	b, err := encode(f, w, h, format)
	if err != nil {
		return fmt.Errorf("viz: save %s: %w", path, err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("viz: save: %w", err)
	}
	return nil
}

// SVGOf renders a figure as inline SVG (no XML declaration) at w×h.
func SVGOf(f Figure, w, h vg.Length) string {
	b, err := encode(f, w, h, "svg")
	if err != nil {
		return ""
	}
	return inlineSVG(b)
}

// inlineSVG drops the XML declaration and the generator comment, which HTML does not need.
func inlineSVG(b []byte) string {
	s := string(b)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return s
}

// HeatMaps is one or more heat maps on one colour scale, in rows of Cols, with the scale drawn
// as a colour bar on the right. In a notebook it shows as a PNG, like a Grid.
type HeatMaps struct {
	Title  string
	Maps   []*plot.Plot // row-major
	Cols   int          // maps per row, e.g. 3
	Bar    *plot.Plot   // the colour bar: the scale's colours from its minimum (bottom) to its maximum
	Width  vg.Length    // the whole figure
	Height vg.Length
}

// newHeatMaps lays out maps (each drawn with whiteToBlue(64) over 0…1) beside a colour bar
// whose axis is named label.
func newHeatMaps(title string, cols int, label string, maps ...*plot.Plot) *HeatMaps {
	bar := plot.New()
	h := plotter.NewHeatMap(barGrid(64), whiteToBlue(64))
	h.Min, h.Max, h.Rasterized = 0, 1, true
	bar.Add(h)
	bar.HideX()
	bar.X.Padding, bar.Y.Padding = 0, 0
	bar.Y.Label.Text = label
	bar.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.25, Label: "0.25"},
		{Value: 0.5, Label: "0.5"}, {Value: 0.75, Label: "0.75"}, {Value: 1, Label: "1"}})
	rows := (len(maps) + cols - 1) / cols
	w, ht := Width, Height
	if len(maps) > 1 {
		w, ht = vg.Length(cols)*3.4*vg.Inch+vg.Inch, vg.Length(rows)*3.2*vg.Inch+titleSpace(title)
	}
	return &HeatMaps{Title: title, Maps: maps, Cols: cols, Bar: bar, Width: w, Height: ht}
}

// Draw draws the maps and, on the right, the colour bar.
func (m *HeatMaps) Draw(dc draw.Canvas) {
	barWidth := 1.3 * vg.Inch
	left := dc
	left.Max.X -= barWidth
	(&Grid{Title: m.Title, Plots: m.Maps, Cols: m.Cols}).Draw(left)
	bar := dc
	bar.Min.X = dc.Max.X - barWidth + vg.Millimeter*2
	bar.Max.X -= 0.2 * vg.Inch
	bar.Min.Y += 0.9 * vg.Inch // level with the maps' data, above their rotated labels
	bar.Max.Y -= 0.5*vg.Inch + titleSpace(m.Title)
	m.Bar.Draw(bar)
}

// PNG renders the figure at 96 dots per inch.
func (m *HeatMaps) PNG() []byte {
	b, err := encode(m, m.Width, m.Height, "png")
	if err != nil {
		return nil
	}
	return b
}

// String describes the figure for text/plain.
func (m *HeatMaps) String() string {
	return fmt.Sprintf("<heat maps %q: %d maps and a colour bar>", m.Title, len(m.Maps))
}

// barGrid is a colour bar's n cells, from 0 at the bottom to 1 at the top, as a GridXYZ (two
// columns wide, as a heat map needs neighbours to size its cells).
type barGrid int

func (g barGrid) Dims() (c, r int)   { return 2, int(g) }
func (g barGrid) Z(c, r int) float64 { return (float64(r) + 0.5) / float64(g) }
func (g barGrid) X(c int) float64    { return float64(c) }
func (g barGrid) Y(r int) float64    { return (float64(r) + 0.5) / float64(g) }
