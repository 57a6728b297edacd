package tokenizer

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"
)

// This file shows token lists: as text, and in a notebook as coloured spans,
// one per token, with the id under each.

// Tokens is a token list that knows its tokenizer, so it can show itself.
type Tokens struct {
	IDs []int
	tok *Tokenizer
}

// Tokens wraps ids for display.
func (t *Tokenizer) Tokens(ids []int) Tokens { return Tokens{IDs: ids, tok: t} }

// Tokenize encodes text and wraps the ids for display.
func (t *Tokenizer) Tokenize(text string) Tokens { return t.Tokens(t.Encode(text)) }

// String lists the tokens with their ids: `15496:"Hello" 995:" world"`.
func (ts Tokens) String() string {
	var b strings.Builder
	for i, id := range ts.IDs {
		if i > 0 {
			b.WriteByte(' ')
		}
		if id < 0 || id >= len(ts.tok.vocab) {
			fmt.Fprintf(&b, "%d:?", id)
			continue
		}
		fmt.Fprintf(&b, "%d:%s", id, tokenLabel(ts.tok.vocab[id]))
	}
	return b.String()
}

// HTML renders the tokens as coloured spans, each with its id below it.
func (ts Tokens) HTML() string {
	return fmt.Sprintf(`<div class="gptnotes-tokens" style="font-family:monospace;font-size:13px;line-height:2.4">%d tokens: %s</div>`,
		len(ts.IDs), ts.tok.spans(ts.IDs, -1))
}

// tokenLabel quotes a token's bytes for text output: Go syntax, so spaces,
// newlines and partial UTF-8 ("\xe2") are visible.
func tokenLabel(tok []byte) string { return fmt.Sprintf("%q", tok) }

// visible returns a token's text for HTML: spaces as ␣, newlines as ↵, tabs
// as →, other control characters and bytes of partial UTF-8 as \xNN.
func visible(tok []byte) string {
	var b strings.Builder
	for len(tok) > 0 {
		r, n := utf8.DecodeRune(tok)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, tok[0])
		case r == ' ':
			b.WriteString("␣")
		case r == '\n':
			b.WriteString("↵")
		case r == '\t':
			b.WriteString("→")
		case r < ' ' || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
		tok = tok[n:]
	}
	return b.String()
}

// color gives each id its own pastel hue (golden-angle steps), so equal
// tokens share a colour and neighbours differ.
func color(id int) string {
	return fmt.Sprintf("hsl(%d,70%%,85%%)", (id*137)%360)
}

// spans renders ids as coloured spans with the id as a subscript; the span
// at index outline (if ≥ 0) gets a border.
func (t *Tokenizer) spans(ids []int, outline int) string {
	var b strings.Builder
	for i, id := range ids {
		text := "?"
		if id >= 0 && id < len(t.vocab) {
			text = visible(t.vocab[id])
		}
		border := ""
		if i == outline {
			border = "outline:2px solid #333;"
		}
		fmt.Fprintf(&b, `<span title="id %d" style="display:inline-block;background:%s;%spadding:1px 2px;margin:1px;border-radius:3px;white-space:pre">%s<sub style="font-size:9px;color:#555">%d</sub></span>`,
			id, color(id), border, html.EscapeString(text), id)
	}
	return b.String()
}
