package live

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/kernel/widget"
)

// bars is how many of the most probable tokens the explorer draws.
const bars = 20

// An Explorer is the sampling explorer: a prompt box; temperature, top-k and top-p sliders; and
// the next-token distribution after the prompt, redrawn on every change, the tokens the policy
// keeps highlighted, with the kept set's size and mass and the entropy.
type Explorer struct {
	*widget.Box
	Prompt      *widget.Text
	Temperature *widget.FloatSlider
	TopK        *widget.IntSlider
	TopP        *widget.FloatSlider
	Figure      *widget.Label // an HTML widget holding the figure

	model  *gpt.Model
	tok    Tokenizer
	logits []float32 // (V) after the prompt
	err    error
}

// Sampling makes the sampling explorer over model, starting from prompt.
func Sampling(model *gpt.Model, tok Tokenizer, prompt string) *Explorer {
	e := &Explorer{
		Prompt:      widget.NewText("prompt", "type a prompt", prompt),
		Temperature: widget.NewFloatSlider("temperature", 0, 2, 0.05, 1),
		TopK:        widget.NewIntSlider("top-k (0 off)", 0, 200, 0),
		TopP:        widget.NewFloatSlider("top-p (1 off)", 0.05, 1, 0.05, 1),
		Figure:      widget.NewHTML(""),
		model:       model,
		tok:         tok,
	}
	e.Box = widget.NewVBox(e.Prompt, e.Temperature, e.TopK, e.TopP, e.Figure)
	e.forward()
	e.Prompt.OnChange(func(string) { e.forward(); e.redraw() })
	e.Temperature.OnChange(func(float64) { e.redraw() })
	e.TopK.OnChange(func(int) { e.redraw() })
	e.TopP.OnChange(func(float64) { e.redraw() })
	e.redraw()
	return e
}

// forward runs the model on the prompt.
func (e *Explorer) forward() {
	ids := e.tok.Encode(e.Prompt.Value())
	if len(ids) == 0 {
		e.logits, e.err = nil, fmt.Errorf("type a prompt")
		return
	}
	if n := e.model.Config.BlockSize; len(ids) > n {
		ids = ids[len(ids)-n:]
	}
	e.logits, e.err = e.model.NextLogits(ids)
}

// A Snapshot is what the explorer shows for one setting.
type Snapshot struct {
	Top     gpt.Candidates // the most probable tokens at the temperature
	Kept    int            // tokens the policy keeps (top-k, then top-p)
	Mass    float64        // their share of the mass at the temperature
	Entropy float64        // bits, at the temperature
}

// Snapshot computes the figure's numbers for the current setting.
func (e *Explorer) Snapshot() (Snapshot, error) {
	if e.err != nil {
		return Snapshot{}, e.err
	}
	T, k, p := e.Temperature.Value(), e.TopK.Value(), e.TopP.Value()
	var s Snapshot
	var err error
	if s.Top, err = gpt.Ranked(e.logits, T, bars); err != nil {
		return s, err
	}
	s.Kept = len(e.logits)
	if k > 0 {
		s.Kept = min(s.Kept, k)
	}
	if p < 1 {
		n, err := gpt.NucleusSize(e.logits, T, p)
		if err != nil {
			return s, err
		}
		s.Kept = min(s.Kept, n)
	}
	if T == 0 {
		s.Kept = 1
	}
	if s.Mass, err = gpt.TopKMass(e.logits, T, s.Kept); err != nil {
		return s, err
	}
	if s.Entropy, err = gpt.Entropy(e.logits, T); err != nil {
		return s, err
	}
	return s, nil
}

// redraw replaces the figure.
func (e *Explorer) redraw() {
	s, err := e.Snapshot()
	if err != nil {
		e.Figure.SetValue("<p>" + html.EscapeString(err.Error()) + "</p>")
		return
	}
	e.Figure.SetValue(e.svg(s))
}

// svg draws the bars: one per candidate, kept ones in blue, the rest grey; the numbers above.
func (e *Explorer) svg(s Snapshot) string {
	const w, rowH, labelW, barW = 560, 18, 150, 340
	var b strings.Builder
	fmt.Fprintf(&b, `<div style="font-family:sans-serif;font-size:13px"><b>%s</b> kept of %s tokens, holding %.1f%% of the mass; entropy %.2f bits at T = %.2f</div>`,
		gpt.Commas(s.Kept), gpt.Commas(len(e.logits)), 100*s.Mass, s.Entropy, e.Temperature.Value())
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" font-size="12">`, w, rowH*len(s.Top)+4)
	top := 0.0
	if len(s.Top) > 0 {
		top = s.Top[0].Prob
	}
	for i, c := range s.Top {
		y := i*rowH + 2
		fill := "#bbb"
		if c.Rank <= s.Kept {
			fill = "#3b75af"
		}
		bw := 0.0
		if top > 0 {
			bw = barW * c.Prob / top
		}
		label := strings.ReplaceAll(fmt.Sprintf("%q", e.tok.Decode([]int{c.ID})), " ", "\u00a0")
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text><rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/><text x="%.1f" y="%d">%.3f</text>`,
			labelW-6, y+13, html.EscapeString(label), labelW, y, math.Max(bw, 0.5), rowH-4, fill, float64(labelW)+bw+4, y+13, c.Prob)
	}
	b.WriteString("</svg>")
	return b.String()
}
