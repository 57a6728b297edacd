package live

import (
	"fmt"
	"html"
	"sort"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/kernel/widget"
	"github.com/gptnotes/gptnotes/viz"
)

// maxAttentionTokens caps the prompt the attention explorer draws: a cell of 16 pixels per
// token keeps the heatmap readable up to about this many.
const maxAttentionTokens = 32

// An AttentionExplorer shows one head's attention pattern after a prompt: a heatmap of every
// query position (rows) over the keys it sees (columns), tokens as labels, as a PNG image (its
// bytes go to the front end as a binary buffer); under it, where one query looks. Layer, head
// and query are sliders. The weights are the model's named activations
// blocks.l.attn.hook_pattern, from one RunWithCache over the prompt.
type AttentionExplorer struct {
	*widget.Box
	Prompt             *widget.Text
	Layer, Head, Query *widget.IntSlider
	Heatmap            *widget.Image // viz.AttentionMap of the layer and head, as PNG
	View               *widget.Label // an HTML widget: the query's keys, most attended first

	model    *gpt.Model
	tok      Tokenizer
	ids      []int
	patterns [][]float32 // (L) of (NH, T, T): blocks.l.attn.hook_pattern without its batch
	err      error
	drawn    [3]int // the layer, head and length of the heatmap shown, to redraw it only when they change
}

// Attention makes the attention explorer over model, starting from prompt (its last 32 tokens).
func Attention(model *gpt.Model, tok Tokenizer, prompt string) *AttentionExplorer {
	cfg := model.Config
	e := &AttentionExplorer{
		Prompt:  widget.NewText("prompt", "type a prompt", prompt),
		Layer:   widget.NewIntSlider("layer", 0, cfg.Layers-1, 0),
		Head:    widget.NewIntSlider("head", 0, cfg.Heads-1, 0),
		Query:   widget.NewIntSlider("query", 0, 0, 0),
		Heatmap: widget.NewImage("png", nil),
		View:    widget.NewHTML(""),
		model:   model,
		tok:     tok,
		drawn:   [3]int{-1, -1, -1},
	}
	e.Box = widget.NewVBox(e.Prompt, e.Layer, e.Head, e.Query, e.Heatmap, e.View)
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
	e.ids, e.patterns, e.err, e.drawn = ids, nil, nil, [3]int{-1, -1, -1}
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
		e.Heatmap.SetValue(nil)
		return
	}
	l, h, q := e.Layer.Value(), e.Head.Value(), min(e.Query.Value(), len(e.ids)-1)
	T := len(e.ids)
	tokens := make([]string, T)
	for i, id := range e.ids {
		tokens[i] = fmt.Sprintf("%q", e.tok.Decode([]int{id}))
	}
	if l != e.drawn[0] || h != e.drawn[1] || e.drawn[2] != T {
		pattern := make([]float32, T*T)
		for i := range T {
			copy(pattern[i*T:], e.Row(l, h, i))
		}
		m, err := viz.AttentionMap(pattern, tokens, l, h)
		if err != nil {
			e.View.SetValue("<p>" + html.EscapeString(err.Error()) + "</p>")
			return
		}
		e.Heatmap.SetValue(m.PNG())
		e.drawn = [3]int{l, h, T}
	}
	e.View.SetValue(queryRow(l, h, q, tokens, e.Row(l, h, q)))
}

// queryRow says in HTML where query q looks: its keys, most attended first, each with its weight.
func queryRow(l, h, q int, tokens []string, row []float32) string {
	keys := make([]int, len(row))
	for k := range keys {
		keys[k] = k
	}
	sort.SliceStable(keys, func(a, b int) bool { return row[keys[a]] > row[keys[b]] })
	var b strings.Builder
	fmt.Fprintf(&b, `<div style="font-family:sans-serif;font-size:13px">layer %d, head %d: each row of the map is a query position, each column a key it attends to. Query %d %s attends to: `,
		l, h, q, html.EscapeString(tokens[q]))
	for i, k := range keys[:min(len(keys), 5)] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "<code>%s</code> (key %d) %.3f", html.EscapeString(tokens[k]), k, row[k])
	}
	b.WriteString("</div>")
	return b.String()
}
