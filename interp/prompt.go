package interp

import (
	"fmt"
	"html"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
)

// TestPrompt is TransformerLens's test_prompt: how the model ranks an expected answer
// after a prompt. The answer may be several tokens; each is scored at the position
// before it with the earlier answer tokens in the context (teacher forcing), beside the
// model's own top k there.

// AnswerToken is one answer token where the model meets it.
type AnswerToken struct {
	ID    int
	Text  string
	Rank  int     // 1 if the model's most probable token
	Logit float32 // its logit
	Prob  float64 // its probability (temperature 1)
	Top   gpt.Candidates
}

// PromptTest is TestPrompt's result.
type PromptTest struct {
	Prompt, Answer string
	PromptIDs      []int
	Tokens         []AnswerToken
	dec            gpt.Decoder
}

// TestPrompt scores answer after prompt, with the top k beside each answer token.
func TestPrompt(m *gpt.Model, tok gpt.Tokenizer, prompt, answer string, k int) (*PromptTest, error) {
	p, a := tok.Encode(prompt), tok.Encode(answer)
	switch {
	case len(p) == 0:
		return nil, fmt.Errorf("interp: test prompt: the prompt %q has no tokens", prompt)
	case len(a) == 0:
		return nil, fmt.Errorf("interp: test prompt: the answer %q has no tokens", answer)
	}
	ids := append(append([]int(nil), p...), a...)
	out, err := m.ForwardAll([][]int{ids[:len(ids)-1]})
	if err != nil {
		return nil, fmt.Errorf("interp: test prompt: %w", err)
	}
	pt := &PromptTest{Prompt: prompt, Answer: answer, PromptIDs: p, dec: tok}
	for i, id := range a {
		row := out.Row(0, len(p)-1+i)
		all, err := gpt.Ranked(row, 1, len(row))
		if err != nil {
			return nil, fmt.Errorf("interp: test prompt: %w", err)
		}
		at := AnswerToken{ID: id, Text: tok.Decode([]int{id}), Top: all[:min(k, len(all))]}
		for _, c := range all {
			if c.ID == id {
				at.Rank, at.Logit, at.Prob = c.Rank, c.Logit, c.Prob
				break
			}
		}
		pt.Tokens = append(pt.Tokens, at)
	}
	return pt, nil
}

// String prints each answer token's rank, logit and probability, and the top k.
func (pt *PromptTest) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "prompt %q, answer %q\n", pt.Prompt, pt.Answer)
	for _, at := range pt.Tokens {
		fmt.Fprintf(&b, "answer token %q: rank %d, logit %.2f, probability %.2f%%\n", at.Text, at.Rank, at.Logit, 100*at.Prob)
		for _, c := range at.Top {
			fmt.Fprintf(&b, "  top %d: %q logit %.2f, %.2f%%\n", c.Rank, pt.dec.Decode([]int{c.ID}), c.Logit, 100*c.Prob)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// HTML shows the same, each top k as gpt's table.
func (pt *PromptTest) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<p>prompt <code>%s</code>, answer <code>%s</code></p>", html.EscapeString(pt.Prompt), html.EscapeString(pt.Answer))
	for _, at := range pt.Tokens {
		fmt.Fprintf(&b, "<p>answer token <code>%s</code>: rank <b>%d</b>, logit %.2f, probability %.2f%%</p>%s",
			html.EscapeString(at.Text), at.Rank, at.Logit, 100*at.Prob, at.Top.HTMLWith(pt.dec))
	}
	return b.String()
}
