package viz

import (
	"fmt"
	"math"
	"strings"

	"github.com/gptnotes/gptnotes/gpt/bench"

	"gonum.org/v1/plot"
)

// Roofline draws the steps of a benchmark run (r.Roofline.Points: the forward's products,
// attention, prompts and decode steps) as achieved GFLOP/s against arithmetic intensity,
// FLOPs a byte, on log axes, under the machine's measured ceilings: the memory stream's
// slope, intensity × bandwidth, and the FMA peak's flat roof, meeting at the ridge. A decode
// step reads each weight for two FLOPs and sits far left, under the slope: memory bounds it.
// A long prompt reuses each weight once per position and sits far right, under the roof:
// arithmetic bounds it. Where the run measured a bf16 peak (bench.Ceilings.BF16PeakTotal,
// VDPBF16PS on AVX-512 BF16 CPUs) its roof is drawn too, in black, with its own ridge further
// right: it, not the FMA peak, bounds the bf16 rows. Without a peak kernel
// (bench.Ceilings.PeakKernel "") only the slope is drawn.
func Roofline(r *bench.Report) *plot.Plot {
	c := r.Ceilings
	title := fmt.Sprintf("Roofline: %s, %d cores", r.Roofline.Model, r.Machine.Cores)
	p := newPlot(title, "arithmetic intensity (FLOP/byte, log)", "achieved GFLOP/s (log)")
	logY(p)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = powersOfTen{}

	pts := r.Roofline.Points
	lo, hi := math.Inf(1), math.Inf(-1)
	ylo := math.Inf(1)
	for _, pt := range pts {
		lo, hi = math.Min(lo, pt.Intensity()), math.Max(hi, pt.Intensity())
		ylo = math.Min(ylo, pt.GFLOPs())
	}
	ridges := []float64{c.Ridge(), c.RidgeBF16()} // 0 for a peak not measured
	for _, ridge := range ridges {
		if ridge > 0 {
			lo, hi = math.Min(lo, ridge), math.Max(hi, ridge)
		}
	}
	if math.IsInf(lo, 0) { // no points and no ridge: a decade either side of one FLOP a byte
		lo, hi, ylo = 1, 1, c.StreamGBs
	}
	lo, hi = lo/3, hi*8 // room for the labels right of the points

	// The ceilings: the slope up to the highest ridge, each roof after its own.
	top := hi
	if ridge := math.Max(c.Ridge(), c.RidgeBF16()); ridge > 0 {
		top = ridge
	}
	line(p, fmt.Sprintf("memory stream: %.0f GB/s × FLOP/byte", c.StreamGBs),
		[]float64{lo, top}, []float64{lo * c.StreamGBs, top * c.StreamGBs}, 0, false)
	ymin := math.Min(ylo, lo*c.StreamGBs) / 2
	if c.PeakTotal > 0 {
		line(p, fmt.Sprintf("FMA peak, %d cores: %.0f GFLOP/s", r.Machine.Cores, c.PeakTotal),
			[]float64{c.Ridge(), hi}, []float64{c.PeakTotal, c.PeakTotal}, 1, false)
		hline(p, fmt.Sprintf("FMA peak, 1 core: %.0f GFLOP/s", c.PeakCore), lo, hi, c.PeakCore, colorAt(1), true)
		ridgeLine(p, "ridge", c.Ridge(), ymin, c.PeakTotal, ymin*1.2)
	} else {
		p.Title.Text += " (no peak kernel on this CPU)"
	}
	if c.BF16PeakTotal > 0 { // the bf16 rows' roof; its ridge's label up under it, clear of the legend
		line(p, fmt.Sprintf("bf16 peak, %d cores: %.0f GFLOP/s", r.Machine.Cores, c.BF16PeakTotal),
			[]float64{c.RidgeBF16(), hi}, []float64{c.BF16PeakTotal, c.BF16PeakTotal}, 6, false)
		ridgeLine(p, "bf16 ridge", c.RidgeBF16(), ymin, c.BF16PeakTotal, c.BF16PeakTotal/1.8)
	}

	// The steps, one colour per kind, each named beside its point.
	kinds := []struct{ kind, legend string }{
		{"product", "the forward's products"}, {"attention", "attention"},
		{"prompt", "prompts (a whole forward)"}, {"decode step", "decode steps"},
	}
	for i, k := range kinds {
		var xs, ys []float64
		var names []string
		for _, pt := range pts {
			if pt.Kind != k.kind {
				continue
			}
			xs, ys = append(xs, pt.Intensity()), append(ys, pt.GFLOPs())
			names = append(names, shortName(pt))
		}
		if len(xs) == 0 {
			continue
		}
		points(p, k.legend, xs, ys, colorAt(2+i), circle)
		if k.kind != "product" { // the five products sit together: the legend names them
			labels(p, xs, ys, names, colorAt(2+i))
		}
	}
	p.X.Min, p.X.Max = lo, hi
	p.Y.Min = ymin
	p.Y.Max = 3 * math.Max(math.Max(c.PeakTotal, c.BF16PeakTotal), top*c.StreamGBs)
	p.Legend.Top, p.Legend.Left = false, false // bottom right, under the roof and past the slope
	return p
}

// ridgeLine marks a ridge at x, FLOPs a byte, with a dotted line from the floor ymin up to
// its roof's height y, and names it right of the line at height ly.
func ridgeLine(p *plot.Plot, name string, x, ymin, y, ly float64) {
	vline(p, x, ymin, y, colorAt(6))
	labels(p, []float64{x}, []float64{ly}, []string{fmt.Sprintf("%s: %.1f FLOP/byte", name, x)}, colorAt(6))
}

// shortName is a point's name without its shape or its kind: "attention (1024 positions, …)"
// → "attention", "decode step bf16 tg128" → "bf16 tg128".
func shortName(pt bench.Point) string {
	name, _, _ := strings.Cut(pt.Name, " (")
	if short := strings.TrimSpace(strings.TrimPrefix(name, pt.Kind)); short != "" {
		return short
	}
	return name
}
