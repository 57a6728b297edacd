package gpt

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// LayerMap is one number per layer and head, or per layer and position: what direct
// logit attribution, head ablation and activation patching measure. viz.LayerMap draws
// it as a heat map; in a cell it shows as a table coloured the same way.
type LayerMap struct {
	Title   string      // e.g. "zero-ablating each head: change in loss"
	Columns string      // what a column is: "head" or "position"
	Labels  []string    // (cols) a label per column: the head's number, or the token at the position
	Values  [][]float64 // (L, cols) row l is layer l
}

// Max returns the layer and column of the value largest in magnitude, and the value.
func (lm *LayerMap) Max() (layer, col int, v float64) {
	for l, row := range lm.Values {
		for c, x := range row {
			if math.Abs(x) > math.Abs(v) {
				layer, col, v = l, c, x
			}
		}
	}
	return layer, col, v
}

// String prints the title and the map, one layer per line.
func (lm *LayerMap) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nlayer \\ %s:", lm.Title, lm.Columns)
	for _, s := range lm.Labels {
		fmt.Fprintf(&b, " %8s", s)
	}
	for l, row := range lm.Values {
		fmt.Fprintf(&b, "\n%5d", l)
		b.WriteString(strings.Repeat(" ", len(lm.Columns)+3))
		for _, x := range row {
			fmt.Fprintf(&b, " %8.3f", x)
		}
	}
	return b.String()
}

// HTML renders the map as a table, each cell tinted red for positive values and blue for
// negative ones, in proportion to the largest magnitude.
func (lm *LayerMap) HTML() string {
	_, _, top := lm.Max()
	top = math.Abs(top)
	var b strings.Builder
	fmt.Fprintf(&b, "<p><b>%s</b></p><table><tr><th>layer \\ %s</th>", html.EscapeString(lm.Title), html.EscapeString(lm.Columns))
	for _, s := range lm.Labels {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(s))
	}
	b.WriteString("</tr>")
	for l, row := range lm.Values {
		fmt.Fprintf(&b, "<tr><th>%d</th>", l)
		for _, x := range row {
			f := 0.0
			if top > 0 && !math.IsNaN(x) {
				f = x / top
			}
			r, g, bl := 255, 255, 255
			if f > 0 {
				g, bl = int(255*(1-f)), int(255*(1-f))
			} else {
				r, g = int(255*(1+f)), int(255*(1+f))
			}
			fmt.Fprintf(&b, "<td style=\"background:rgb(%d,%d,%d);text-align:right\">%.3f</td>", r, g, bl, x)
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>")
	return b.String()
}

// headLabels are "0" … "NH-1".
func headLabels(NH int) []string {
	s := make([]string, NH)
	for h := range s {
		s[h] = fmt.Sprint(h)
	}
	return s
}

// tokenLabels are the tokens of ids as quoted text, or their ids without a decoder.
func tokenLabels(ids []int, d Decoder) []string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
		if d != nil {
			s[i] = fmt.Sprintf("%q", d.Decode([]int{id}))
		}
	}
	return s
}
