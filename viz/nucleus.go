package viz

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"image/color"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/study/reference"
)

// A TemperatureSweep is how one prompt's next-token distribution changes with the temperature,
// measured with gpt's helpers: the size of the top-p set, the mass the top-40 and top-200
// tokens keep, and the entropy at T = 1.
type TemperatureSweep struct {
	Prompt       string
	TopP         float64   // e.g. 0.9
	Temperatures []float64 // e.g. 0.1, 0.2, … 2.0
	NucleusSizes []int     // gpt.NucleusSize(logits, T, TopP) at each temperature
	Top40Mass    []float64 // gpt.TopKMass(logits, T, 40)
	Top200Mass   []float64 // gpt.TopKMass(logits, T, 200)
	EntropyBits  float64   // gpt.Entropy(logits, 1)
}

// SweepTemperature measures the distribution of logits (V, the next-token logits after prompt)
// at each temperature with gpt.NucleusSize, gpt.TopKMass and gpt.Entropy.
func SweepTemperature(prompt string, logits []float32, topP float64, temps []float64) (TemperatureSweep, error) {
	s := TemperatureSweep{Prompt: prompt, TopP: topP, Temperatures: temps}
	var err error
	if s.EntropyBits, err = gpt.Entropy(logits, 1); err != nil {
		return s, fmt.Errorf("viz: sweep %q: %w", prompt, err)
	}
	for _, T := range temps {
		n, err := gpt.NucleusSize(logits, T, topP)
		if err != nil {
			return s, fmt.Errorf("viz: sweep %q at T=%g: %w", prompt, T, err)
		}
		m40, err := gpt.TopKMass(logits, T, 40)
		if err != nil {
			return s, fmt.Errorf("viz: sweep %q at T=%g: %w", prompt, T, err)
		}
		m200, err := gpt.TopKMass(logits, T, 200)
		if err != nil {
			return s, fmt.Errorf("viz: sweep %q at T=%g: %w", prompt, T, err)
		}
		s.NucleusSizes = append(s.NucleusSizes, n)
		s.Top40Mass = append(s.Top40Mass, m40)
		s.Top200Mass = append(s.Top200Mass, m200)
	}
	return s, nil
}

// At returns the index of the temperature closest to T.
func (s TemperatureSweep) At(T float64) int {
	best := 0
	for i, t := range s.Temperatures {
		if math.Abs(t-T) < math.Abs(s.Temperatures[best]-T) {
			best = i
		}
	}
	return best
}

// TopP draws, on the left, each prompt's top-p set size against the temperature (log scale,
// the entropy at T = 1 in the legend) and, on the right, the mass the top-40 (dashed) and
// top-200 (solid) tokens keep. The study's points (GPT-2 small) are grey crosses, each
// labelled with its prompt, temperature and figure, when a sweep uses one of its prompts.
func TopP(sweeps []TemperatureSweep) *Grid {
	topP := 0.9
	if len(sweeps) > 0 {
		topP = sweeps[0].TopP
	}
	left := newPlot(fmt.Sprintf("tokens it takes to hold %.0f%% of the mass", 100*topP), "temperature", "top-p set size")
	logY(left)
	right := newPlot("mass kept: top-200 solid, top-40 dashed", "temperature", "mass kept")
	right.Legend.Top = false
	studied := false // one legend entry for all of the study's marks
	for i, s := range sweeps {
		sizes := make([]float64, len(s.NucleusSizes))
		for k, n := range s.NucleusSizes {
			sizes[k] = float64(n)
		}
		line(left, fmt.Sprintf("%s (%.1f bits)", short(s.Prompt, 28), s.EntropyBits), s.Temperatures, sizes, i, false)
		for _, m := range reference.Nucleus[s.Prompt] {
			name := ""
			if !studied {
				name, studied = "the study (GPT-2 small)", true
			}
			points(left, name, []float64{m[0]}, []float64{m[1]}, studyColor, studyGlyph)
			// Each mark says whose it is, since it sits on this model's curve only when the
			// model is GPT-2 small.
			labels(left, []float64{m[0]}, []float64{m[1]},
				[]string{fmt.Sprintf("%s, T %.1f: %s", short(s.Prompt, 14), m[0], gpt.Commas(int(m[1])))}, studyColor)
		}
		line(right, short(s.Prompt, 28), s.Temperatures, s.Top200Mass, i, false)
		line(right, "", s.Temperatures, s.Top40Mass, i, true)
	}
	left.Y.Min = 1
	right.Y.Min, right.Y.Max = 0, 1.02
	left.X.Tick.Marker, right.X.Tick.Marker = temperatureTicks, temperatureTicks
	return NewGrid("Sampling is a policy on top: top-p and top-k against the temperature", 2, left, right)
}

// SliderTemperature is the interactive version: drag the temperature and watch each prompt's
// top-p set grow, with the top-40 and top-200 readouts beside it.
func SliderTemperature(sweeps []TemperatureSweep) *Slider {
	if len(sweeps) == 0 {
		return &Slider{Title: "no prompts"}
	}
	temps := sweeps[0].Temperatures
	values := make([]string, len(temps))
	maxN := 1
	for _, s := range sweeps {
		for _, n := range s.NucleusSizes {
			maxN = max(maxN, n)
		}
	}
	for i, T := range temps {
		values[i] = fmt.Sprintf("%.1f", T)
	}
	start := sweeps[0].At(1)
	sl := &Slider{Title: fmt.Sprintf("top-p %.2g set size against the temperature", sweeps[0].TopP),
		Controls: []Control{{Label: "temperature", Values: values, Start: start}}}
	for ti, T := range temps {
		p := plot.New()
		p.X.Label.Text = fmt.Sprintf("tokens holding %.0f%% of the mass (log scale)", 100*sweeps[0].TopP)
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		p.X.Min, p.X.Max = 1, math.Pow(10, math.Ceil(math.Log10(float64(maxN))+0.3))
		var names []string
		var caption []string
		for i, s := range sweeps {
			y := float64(len(sweeps) - 1 - i)
			n := s.NucleusSizes[ti]
			bar, _ := plotter.NewLine(plotter.XYs{{X: 1, Y: y}, {X: math.Max(float64(n), 1.05), Y: y}})
			bar.Color = colorAt(i)
			bar.Width = vg.Points(14)
			p.Add(bar)
			labels(p, []float64{float64(n)}, []float64{y},
				[]string{fmt.Sprintf("%d  (top-40 keeps %.0f%%, top-200 %.0f%%)", n, 100*s.Top40Mass[ti], 100*s.Top200Mass[ti])}, color.Black)
			names = append([]string{short(s.Prompt, 24)}, names...)
			caption = append(caption, fmt.Sprintf("%q: %d tokens, top-40 %.0f%%, top-200 %.0f%%",
				s.Prompt, n, 100*s.Top40Mass[ti], 100*s.Top200Mass[ti]))
		}
		p.NominalY(names...)
		p.Y.Min, p.Y.Max = -0.6, float64(len(sweeps))-0.4
		p.Title.Text = fmt.Sprintf("T = %.1f", T)
		sl.Frames = append(sl.Frames, Frame{
			SVG:     SVGOf(p, 6*vg.Inch, vg.Length(len(sweeps))*0.55*vg.Inch+0.9*vg.Inch),
			Caption: strings.Join(caption, "; "),
		})
	}
	return sl
}

// short cuts s to n runes with an ellipsis, newlines and tabs written as \n and \t so that a
// prompt stays on one line of a legend.
func short(s string, n int) string {
	r := []rune(strings.NewReplacer("\n", `\n`, "\t", `\t`).Replace(s))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n-1]) + "…"
}

// temperatureTicks marks the temperature axis where the text needs it: 0.8 and 1.0 (the
// model's own distribution) among them.
var temperatureTicks = plot.ConstantTicks([]plot.Tick{{Value: 0.2, Label: "0.2"}, {Value: 0.5, Label: "0.5"},
	{Value: 0.8, Label: "0.8"}, {Value: 1, Label: "1.0"}, {Value: 1.5, Label: "1.5"}, {Value: 2, Label: "2.0"}})
