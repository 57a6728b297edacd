package gpt

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strings"
)

// How a Stepper shows itself in a cell: the diagram of a pre-LayerNorm block with the
// current op highlighted, beside the op (Op.HTML): what it computes, its inputs, and its
// output drawn as a heatmap (a pattern or scores per head, a stream as positions ×
// channels), as values (LayerNorm's scale) or as the top logits.

// HTML renders the diagram of the forward with the current op highlighted, beside that op
// and its output.
func (s *Stepper) HTML() string {
	var b strings.Builder
	b.WriteString(`<div style="display:flex;gap:16px;align-items:flex-start">`)
	b.WriteString(`<div style="flex:none">` + s.diagram() + `</div>`)
	b.WriteString(`<div>`)
	if s.cur == nil {
		fmt.Fprintf(&b, "<p>%d ops over %d positions; nothing computed yet. Next performs %s.</p>", len(s.plan), len(s.ids), html.EscapeString(s.Peek()))
	} else {
		b.WriteString(s.cur.HTML())
		if !s.Done() {
			fmt.Fprintf(&b, "<p>next: %s</p>", html.EscapeString(s.Peek()))
		}
	}
	b.WriteString(`</div></div>`)
	return b.String()
}

// diagramRow is one row of the block diagram: its boxes, each the name of an op (relative
// to its block inside one) and a label; add marks a residual add, drawn on the stream.
type diagramRow struct {
	group string // e.g. "ln_1", written left of the row
	boxes [][2]string
	add   bool
}

var (
	diagramBefore = []diagramRow{
		{"embed", [][2]string{{"hook_embed", "wte[token]"}, {"hook_pos_embed", "wpe[position]"}}, false},
	}
	diagramBlock = []diagramRow{
		{"", [][2]string{{"hook_resid_pre", "+ embeddings (block 0)"}}, true},
		{"ln_1", [][2]string{{"ln1.hook_scale", "scale"}, {"ln1.hook_normalized", "normalize"}, {"ln1.out", "·w + b"}}, false},
		{"c_attn", [][2]string{{"attn.hook_q", "q"}, {"attn.hook_k", "k"}, {"attn.hook_v", "v"}}, false},
		{"", [][2]string{{"attn.scores", "q·kᵀ / √HS"}}, false},
		{"", [][2]string{{"attn.hook_attn_scores", "causal mask"}}, false},
		{"", [][2]string{{"attn.hook_pattern", "softmax"}}, false},
		{"", [][2]string{{"attn.hook_z", "pattern · v"}}, false},
		{"c_proj", [][2]string{{"attn.hook_result", "z_h · W_O[h]"}, {"hook_attn_out", "Σ heads + b"}}, false},
		{"", [][2]string{{"hook_resid_mid", "+ attn_out"}}, true},
		{"ln_2", [][2]string{{"ln2.hook_scale", "scale"}, {"ln2.hook_normalized", "normalize"}, {"ln2.out", "·w + b"}}, false},
		{"mlp", [][2]string{{"mlp.hook_pre", "c_fc"}, {"mlp.hook_post", "GELU"}, {"hook_mlp_out", "c_proj"}}, false},
		{"", [][2]string{{"hook_resid_post", "+ mlp_out"}}, true},
	}
	diagramAfter = []diagramRow{
		{"ln_f", [][2]string{{"ln_final.hook_scale", "scale"}, {"ln_final.hook_normalized", "normalize"}, {"ln_final.out", "·w + b"}}, false},
		{"unembed", [][2]string{{"logits", "· wteᵀ"}}, false},
	}
)

// diagram draws the forward as an SVG: the embeddings, the block of the current op (block 0
// before and after the blocks), ln_f and the unembedding; the residual stream runs down the
// left with its adds. The current op is orange, ops done are blue, ops to come white.
func (s *Stepper) diagram() string {
	index := map[string]int{}
	for i, p := range s.plan {
		index[p.name] = i
	}
	layer := 0 // the block drawn: the current op's, the last one after the blocks
	switch {
	case s.cur == nil:
	case s.cur.Layer >= 0:
		layer = s.cur.Layer
	case s.cur.Index > 2: // ln_f or the logits
		layer = s.m.Config.Layers - 1
	}
	const (
		rowH, boxH = 24, 18
		stream     = 14      // x of the residual stream
		x0, width  = 74, 250 // the boxes of a row share this width
	)
	var b strings.Builder
	rows := len(diagramBefore) + len(diagramBlock) + len(diagramAfter)
	H := rows*rowH + 40
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`, x0+width+10, H)
	fmt.Fprintf(&b, `<line x1="%d" y1="10" x2="%d" y2="%d" stroke="#888" stroke-width="3"/>`, stream, stream, H-6)
	y := 8
	current := -1
	if s.cur != nil {
		current = s.cur.Index
	}
	draw := func(r diagramRow, prefix string) {
		if r.group != "" {
			fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#555">%s</text>`, stream+8, y+13, html.EscapeString(r.group))
		}
		n := len(r.boxes)
		for i, box := range r.boxes {
			name, label := prefix+box[0], box[1]
			at, ok := index[name]
			if !ok { // blocks.l.hook_resid_pre of a block l > 0: the previous block's output
				prev := fmt.Sprintf("blocks.%d.hook_resid_post", layer-1)
				at, label = index[prev], fmt.Sprintf("= block %d's output", layer-1)
			}
			fill := "#fff"
			switch {
			case at == current:
				fill = "#f4a261"
			case at < s.next:
				fill = "#cfe3f3"
			}
			if r.add {
				fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="7" fill="%s" stroke="#333"/><text x="%d" y="%d" text-anchor="middle">+</text>`,
					stream, y+boxH/2, fill, stream, y+boxH/2+4)
				fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#333">%s <tspan fill="#888">%s</tspan></text>`, x0, y+13, html.EscapeString(label), html.EscapeString(name))
				continue
			}
			w := width / n
			x := x0 + i*w
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" rx="3" fill="%s" stroke="#333"><title>%s</title></rect>`, x, y, w-4, boxH, fill, html.EscapeString(name))
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`, x+(w-4)/2, y+13, html.EscapeString(box[1]))
		}
		y += rowH
	}
	for _, r := range diagramBefore {
		draw(r, "")
	}
	top := y - 3
	block := fmt.Sprintf("blocks.%d.", layer)
	for _, r := range diagramBlock {
		draw(r, block)
	}
	fmt.Fprintf(&b, `<rect x="4" y="%d" width="%d" height="%d" fill="none" stroke="#999" stroke-dasharray="4 3"/>`, top, x0+width, y-top)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" fill="#555">block %d of %d</text>`, x0+width-2, y-6+15, layer, s.m.Config.Layers)
	y += 12
	for _, r := range diagramAfter {
		draw(r, "")
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// HTML renders the op: its place in the forward, what it computes, its inputs with their
// shapes, and its output's statistics and values.
func (op *Op) HTML() string {
	var b strings.Builder
	where := "outside the blocks"
	if op.Layer >= 0 {
		where = fmt.Sprintf("block %d", op.Layer)
	}
	fmt.Fprintf(&b, "<p><b>op %d · %s · %s</b><br><code>%s</code> %v: %s.</p>", op.Index, where, html.EscapeString(op.Label),
		html.EscapeString(op.Name), op.Output.Shape, html.EscapeString(op.What))
	b.WriteString("<table><tr><th>input</th><th>shape</th></tr>")
	for _, a := range op.Inputs {
		fmt.Fprintf(&b, "<tr><td><code>%s</code></td><td>%v</td></tr>", html.EscapeString(a.Name), a.Shape)
	}
	b.WriteString("</table>")
	fmt.Fprintf(&b, "<p>%s</p>", html.EscapeString(op.Output.String()))
	b.WriteString(outputHTML(op.Output))
	return b.String()
}

// shownPositions is how many positions (the last ones) a heatmap shows.
const shownPositions = 16

// outputHTML draws an output by its shape: (1, NH, T, T) as one heatmap per head; (1, T, 1)
// as values; logits as the top entries of the last position; any other (1, T, …) as a
// heatmap of positions × the first 64 features.
func outputHTML(a *Activation) string {
	sh := a.Shape
	switch {
	case len(sh) == 4 && sh[2] == sh[3] && (strings.HasSuffix(a.Name, "scores") || strings.HasSuffix(a.Name, "pattern")):
		NH, T := sh[1], sh[2]
		lo := max(0, T-shownPositions)
		var b strings.Builder
		fmt.Fprintf(&b, "<p>each head's queries %d…%d (rows) × keys %d…%d (columns)</p><div style=\"display:flex;flex-wrap:wrap;gap:8px\">", lo, T-1, lo, T-1)
		pattern := strings.HasSuffix(a.Name, "pattern")
		for h := 0; h < NH; h++ {
			at := func(r, c int) float32 { return a.Data[(h*T+lo+r)*T+lo+c] }
			fmt.Fprintf(&b, "<div><div>head %d</div>%s</div>", h, heatmapSVG(at, T-lo, T-lo, pattern))
		}
		b.WriteString("</div>")
		return b.String()
	case len(sh) == 3 && sh[2] == 1:
		var b strings.Builder
		b.WriteString("<table><tr><th>position</th>")
		for t := 0; t < sh[1]; t++ {
			fmt.Fprintf(&b, "<td>%d</td>", t)
		}
		b.WriteString("</tr><tr><th>value</th>")
		for _, v := range a.Data {
			fmt.Fprintf(&b, "<td>%.4g</td>", v)
		}
		b.WriteString("</tr></table>")
		return b.String()
	case a.Name == "logits" && len(sh) == 3:
		T, V := sh[1], sh[2]
		last := a.Data[(T-1)*V : T*V]
		ids := make([]int, V)
		for i := range ids {
			ids[i] = i
		}
		sort.SliceStable(ids, func(i, j int) bool { return last[ids[i]] > last[ids[j]] })
		var b strings.Builder
		fmt.Fprintf(&b, "<table><caption>the largest logits of the last position (%d)</caption><tr><th>token id</th><th>logit</th></tr>", T-1)
		for _, id := range ids[:min(5, V)] {
			fmt.Fprintf(&b, "<tr><td>%d</td><td>%.3f</td></tr>", id, last[id])
		}
		b.WriteString("</table>")
		return b.String()
	case len(sh) >= 3 && sh[0] == 1:
		T, F := sh[1], a.Len()/sh[1]
		lo, cols := max(0, T-shownPositions), min(F, 64)
		at := func(r, c int) float32 { return a.Data[(lo+r)*F+c] }
		return fmt.Sprintf("<p>positions %d…%d (rows) × features 0…%d of %d (columns)</p>%s", lo, T-1, cols-1, F, heatmapSVG(at, T-lo, cols, false))
	}
	return ""
}

// heatmapSVG draws rows × cols values: from white to blue over [0, 1] when unit, else blue
// for negative and red for positive, scaled by the largest |value|. −Inf is grey (a masked
// score); NaN is black. Each cell's value is its tooltip.
func heatmapSVG(at func(r, c int) float32, rows, cols int, unit bool) string {
	scale := 1.0
	if !unit {
		scale = 0
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				if v := float64(at(r, c)); !math.IsInf(v, 0) && !math.IsNaN(v) {
					scale = math.Max(scale, math.Abs(v))
				}
			}
		}
		if scale == 0 {
			scale = 1
		}
	}
	cell := max(4, min(14, 320/max(rows, cols)))
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">`, cols*cell, rows*cell)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			v := float64(at(r, c))
			var fill string
			switch {
			case math.IsNaN(v):
				fill = "#000"
			case math.IsInf(v, 0):
				fill = "#ccc"
			case unit:
				fill = fmt.Sprintf("rgba(31,119,180,%.3f)", math.Min(1, math.Max(0, v)))
			case v < 0:
				fill = fmt.Sprintf("rgba(31,119,180,%.3f)", -v/scale)
			default:
				fill = fmt.Sprintf("rgba(214,39,40,%.3f)", v/scale)
			}
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"><title>%.4g</title></rect>`, c*cell, r*cell, cell, cell, fill, v)
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}
