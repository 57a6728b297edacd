package live

import (
	"fmt"
	"html"
	"strings"

	"github.com/gptnotes/gptnotes/kernel/widget"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// A TokenExplorer is the tokenizer explorer: a text box, and the text cut into tokens by each
// tokenizer side by side, as coloured spans with their ids, redrawn as you type.
type TokenExplorer struct {
	*widget.Box
	Text *widget.Text
	View *widget.Label // an HTML widget

	names []string
	toks  []Tokenizer
}

// Tokens makes the tokenizer explorer over text, for tok (named name) and GPT-2's tokenizer.
func Tokens(text, name string, tok Tokenizer) *TokenExplorer {
	e := &TokenExplorer{
		Text:  widget.NewTextarea("text", text, 3),
		View:  widget.NewHTML(""),
		names: []string{name},
		toks:  []Tokenizer{tok},
	}
	if g, err := tokenizer.GPT2(); err == nil {
		e.names, e.toks = append(e.names, "GPT-2"), append(e.toks, g)
	}
	e.Box = widget.NewVBox(e.Text, e.View)
	e.Text.OnChange(func(string) { e.redraw() })
	e.redraw()
	return e
}

// palette colours successive tokens, so their boundaries show.
var palette = []string{"#fde2a6", "#c9e4f6", "#d6f0c8", "#f6cbd6", "#e2d6f6"}

func (e *TokenExplorer) redraw() {
	var b strings.Builder
	text := e.Text.Value()
	for i, tok := range e.toks {
		ids := tok.Encode(text)
		fmt.Fprintf(&b, `<div style="margin:4px 0"><b>%s</b>: %d tokens<div style="font-family:monospace;line-height:2;white-space:pre-wrap">`,
			html.EscapeString(e.names[i]), len(ids))
		for j, id := range ids {
			s := tok.Decode([]int{id})
			fmt.Fprintf(&b, `<span title="%d" style="background:%s;border-radius:3px;padding:1px 0">%s<sub style="color:#777">%d</sub></span>`,
				id, palette[j%len(palette)], html.EscapeString(s), id)
		}
		b.WriteString("</div></div>")
	}
	e.View.SetValue(b.String())
}
