package gpt

import (
	"fmt"
	"html"
	"strings"
)

// LogitLens reads the residual stream as if the model stopped early: ln_f and the
// unembedding applied to the stream before the first block and after every block, at
// every position, and the tokens that would then be predicted. (As in the original logit
// lens, ln_f recomputes the mean and scale of each stream it is applied to.)
type LogitLens struct {
	IDs     []int          // (T) the tokens forwarded
	Layers  []string       // (L+1) "embed", "block 0", …, "block L-1"
	Top     [][]Candidates // (L+1, T) the most probable next tokens read from each stage and position
	Decoder Decoder        // shows tokens as text; nil shows ids
}

// LogitLens applies ln_f and the unembedding to ResidualStream(), keeping the top most
// probable tokens at every stage and position. d (a tokenizer, or nil) labels the tokens.
func (c *ActivationCache) LogitLens(d Decoder, top int) (*LogitLens, error) {
	const op = "logit lens"
	if err := c.sequence(op); err != nil {
		return nil, err
	}
	if top < 1 {
		return nil, fmt.Errorf("gpt: %s: top %d, want ≥ 1", op, top)
	}
	stream, err := c.ResidualStream()
	if err != nil {
		return nil, err
	}
	L, T, C, V := c.Config.Layers, c.T, c.Config.Channels, c.Config.VocabSize
	lens := &LogitLens{IDs: append([]int(nil), c.IDs[0]...), Decoder: d}
	logits := make([]float32, T*V) // (T, V) one stage at a time
	for s := 0; s <= L; s++ {
		name := "embed"
		if s > 0 {
			name = fmt.Sprintf("block %d", s-1)
		}
		lens.Layers = append(lens.Layers, name)
		x := c.lnFinal(stream.Data[s*T*C:(s+1)*T*C], T)
		c.model.logits(logits, x, T)
		row := make([]Candidates, T)
		for t := range row {
			if row[t], err = Ranked(logits[t*V:(t+1)*V], 1, top); err != nil {
				return nil, fmt.Errorf("gpt: %s: %s, position %d: %w", op, name, t, err)
			}
		}
		lens.Top = append(lens.Top, row)
	}
	return lens, nil
}

// token shows one token as quoted text, or its id without a decoder.
func (lens *LogitLens) token(id int) string {
	if lens.Decoder == nil {
		return fmt.Sprint(id)
	}
	return fmt.Sprintf("%q", lens.Decoder.Decode([]int{id}))
}

// String prints the input tokens, then the most probable next token of each stage (rows)
// at each position (columns).
func (lens *LogitLens) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-9s", "input")
	for _, id := range lens.IDs {
		fmt.Fprintf(&b, " %s", lens.token(id))
	}
	b.WriteByte('\n')
	for s, row := range lens.Top {
		fmt.Fprintf(&b, "%-9s", lens.Layers[s])
		for _, cs := range row {
			fmt.Fprintf(&b, " %s", lens.token(cs[0].ID))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// HTML renders a table: one row per stage, one column per position headed by its input
// token, each cell the most probable next token and its probability (the others in the
// cell's tooltip).
func (lens *LogitLens) HTML() string {
	var b strings.Builder
	b.WriteString("<table><tr><th>stage \\ input</th>")
	for _, id := range lens.IDs {
		fmt.Fprintf(&b, "<th><code>%s</code></th>", html.EscapeString(lens.token(id)))
	}
	b.WriteString("</tr>")
	for s, row := range lens.Top {
		fmt.Fprintf(&b, "<tr><th>%s</th>", lens.Layers[s])
		for _, cs := range row {
			var tip []string
			for _, c := range cs {
				tip = append(tip, fmt.Sprintf("%s %.1f%%", lens.token(c.ID), 100*c.Prob))
			}
			fmt.Fprintf(&b, "<td title=\"%s\"><code>%s</code> %.0f%%</td>", html.EscapeString(strings.Join(tip, ", ")),
				html.EscapeString(lens.token(cs[0].ID)), 100*cs[0].Prob)
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>")
	return b.String()
}
