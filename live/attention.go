package live

import (
	"fmt"
	"html"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/kernel/widget"
)

// maxAttentionTokens caps the prompt the attention explorer draws: a cell of 16 pixels per
// token keeps the heatmap readable up to about this many.
const maxAttentionTokens = 32

// An AttentionExplorer shows one head's attention pattern after a prompt: a heatmap of every
// query position (rows) over the keys it sees (columns), tokens as labels, one query's row
// outlined. Layer, head and query are sliders. The weights are the model's named
// activations blocks.l.attn.hook_pattern, from one RunWithCache over the prompt.
type AttentionExplorer struct {
	*widget.Box
	Prompt             *widget.Text
	Layer, Head, Query *widget.IntSlider
	View               *widget.Label // an HTML widget

	model    *gpt.Model
	tok      Tokenizer
	ids      []int
	patterns [][]float32 // (L) of (NH, T, T): blocks.l.attn.hook_pattern without its batch
	err      error
}

// Attention makes the attention explorer over model, starting from prompt (its last 32 tokens).
func Attention(model *gpt.Model, tok Tokenizer, prompt string) *AttentionExplorer {
	cfg := model.Config
	e := &AttentionExplorer{
		Prompt: widget.NewText("prompt", "type a prompt", prompt),
		Layer:  widget.NewIntSlider("layer", 0, cfg.Layers-1, 0),
		Head:   widget.NewIntSlider("head", 0, cfg.Heads-1, 0),
		Query:  widget.NewIntSlider("query", 0, 0, 0),
		View:   widget.NewHTML(""),
		model:  model,
		tok:    tok,
	}
	e.Box = widget.NewVBox(e.Prompt, e.Layer, e.Head, e.Query, e.View)
	e.trace()
	e.Prompt.OnChange(func(string) { e.trace(); e.redraw() })
	for _, s := range []*widget.IntSlider{e.Layer, e.Head, e.Query} {
		s.OnChange(func(int) { e.redraw() })
	}
	e.redraw()
	return e
}

// trace runs the model over the prompt once, keeping every layer's attention pattern.
func (e *AttentionExplorer) trace() {
	ids := e.tok.Encode(e.Prompt.Value())
	if n := min(maxAttentionTokens, e.model.Config.BlockSize); len(ids) > n {
		ids = ids[len(ids)-n:]
	}
	e.ids, e.patterns, e.err = ids, nil, nil
	if len(ids) == 0 {
		e.err = fmt.Errorf("type a prompt")
		return
	}
	_, cache, err := e.model.RunWithCache(ids, "blocks.*.attn.hook_pattern")
	if err != nil {
		e.err = err
		return
	}
	for l := 0; l < e.model.Config.Layers; l++ {
		a, err := cache.Pattern(l)
		if err != nil {
			e.err = err
			return
		}
		e.patterns = append(e.patterns, a.Data)
	}
	e.Query.SetState(map[string]any{"max": len(ids) - 1, "value": len(ids) - 1})
}

// Row is the attention of query q over keys 0…q in layer l, head h.
func (e *AttentionExplorer) Row(l, h, q int) []float32 {
	T := len(e.ids)
	off := (h*T + q) * T
	return e.patterns[l][off : off+q+1]
}

func (e *AttentionExplorer) redraw() {
	if e.err != nil {
		e.View.SetValue("<p>" + html.EscapeString(e.err.Error()) + "</p>")
		return
	}
	l, h, q := e.Layer.Value(), e.Head.Value(), min(e.Query.Value(), len(e.ids)-1)
	const cell, labelW = 16, 90
	T := len(e.ids)
	labels := make([]string, T)
	for i, id := range e.ids {
		labels[i] = html.EscapeString(strings.ReplaceAll(fmt.Sprintf("%q", e.tok.Decode([]int{id})), " ", "\u00a0"))
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<div style="font-family:sans-serif;font-size:13px">layer %d, head %d: each row is a query position, each column a key it attends to</div>`, l, h)
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" font-size="11">`,
		labelW+T*cell+4, labelW+T*cell+4)
	for k := 0; k < T; k++ {
		x := labelW + k*cell + cell/2
		fmt.Fprintf(&b, `<text transform="translate(%d,%d) rotate(-60)">%s</text>`, x, labelW-4, labels[k])
	}
	for i := 0; i < T; i++ {
		y := labelW + i*cell
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`, labelW-4, y+cell-4, labels[i])
		for k, w := range e.Row(l, h, i) {
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="rgb(%d,%d,255)"><title>%.3f</title></rect>`,
				labelW+k*cell, y, cell-1, cell-1, int(255*(1-w)), int(255*(1-w)), w)
		}
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#d62728" stroke-width="2"/>`,
		labelW-1, labelW+q*cell-1, (q+1)*cell+1, cell+1)
	b.WriteString("</svg>")
	e.View.SetValue(b.String())
}
