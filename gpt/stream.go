package gpt

import (
	"context"
	"errors"
	"fmt"
	"html"
)

// The seed's generation API, kept for continuity: GenerateText returns the text,
// GenerateChan streams the ids (the prompt's first, then each new one) on a channel that is
// closed at the end. Both run over small interfaces, so any tokenizer with an end-of-text
// token and any LanguageModel fit. With a *Model they use the cached Generator; with any
// other LanguageModel, the uncached loop. Either way the context slides by one token past
// maxContextLen, as nanoGPT's does, so both give the same tokens.
//
// Every output carries its Policy: Generate returns it in the Generation, GenerateStream in
// the Stream. The seed's signatures take only a temperature; they use
// Policy{Temperature: temperature} (no top-k, no top-p, seed 0).

// Tokenizer is what generation needs from a tokenizer.
type Tokenizer interface {
	Encode(text string) []int
	Decode(ids []int) string
	EndTokenID() int // GPT-2's <|endoftext|>, 50256
}

// Generation is the result of Generate: the ids, the text and the policy that made them.
type Generation struct {
	Policy    Policy
	Prompt    string
	IDs       []int  // the prompt's ids, then the generated ones (the end token is not included)
	PromptLen int    // how many of IDs are the prompt's
	Text      string // the decoded IDs: the prompt and its continuation
	End       bool   // generation stopped at the end token, before maxNew
}

// String prints the policy on the first line and the text after it.
func (g Generation) String() string { return fmt.Sprintf("[%s]\n%s", g.Policy, g.Text) }

// HTML renders the policy and the text.
func (g Generation) HTML() string {
	return fmt.Sprintf("<p><b>policy</b>: %s; %d prompt tokens, %d generated</p><pre>%s</pre>",
		html.EscapeString(g.Policy.String()), g.PromptLen, len(g.IDs)-g.PromptLen, html.EscapeString(g.Text))
}

// Generate generates up to maxNew tokens after prompt with policy p, stopping at the end
// token, and returns them with the policy. It stops with ctx's error when ctx is done.
func Generate(ctx context.Context, m LanguageModel, maxContextLen int, tok Tokenizer, prompt string, maxNew int, p Policy) (Generation, error) {
	res := Generation{Policy: p, Prompt: prompt}
	g, err := seedGenerator(m, maxContextLen, tok, prompt, p)
	if err != nil {
		return res, err
	}
	defer g.Close() // nobody else holds g: its cache is the model's spare again
	g.Reserve(maxNew)
	res.IDs, res.PromptLen = g.Tokens(), len(g.ids)
	for i := 0; i < maxNew; i++ {
		if err = ctx.Err(); err != nil {
			break
		}
		var s Step
		if s, err = g.Step(); err != nil {
			break
		}
		if s.End {
			res.End = true
			break
		}
		res.IDs = append(res.IDs, s.Token)
	}
	res.Text = tok.Decode(res.IDs)
	return res, err
}

// GenerateText is the seed's call: up to maxNew tokens after prompt at the given
// temperature (0 = argmax), returned as the prompt's text and its continuation. An error
// (a context longer than the model's block, say) ends the text where it happened; call
// Generate to see it.
func GenerateText(m LanguageModel, maxContextLen int, tok Tokenizer, prompt string, maxNew int, temperature float64) string {
	g, _ := Generate(context.Background(), m, maxContextLen, tok, prompt, maxNew, Policy{Temperature: temperature})
	return g.Text
}

// Stream is a generation running on its own goroutine.
type Stream struct {
	C      <-chan int // the prompt's ids, then each new id; closed at the end
	Policy Policy

	done chan struct{} // closed when the goroutine has returned
	err  error         // why it ended early; read after done
}

// Err waits for the generation goroutine to return, then reports why it ended early: nil
// after maxNew tokens or the end token, ctx's error when cancelled, or the model's error.
func (s *Stream) Err() error {
	<-s.done
	return s.err
}

// streamBuffer bounds the channel's buffer: a generation of up to this many ids never
// blocks on its reader.
const streamBuffer = 1 << 16

// GenerateStream starts generating on a new goroutine and returns at once. The channel is
// buffered for the whole output (up to 65,536 ids), so a reader that stops reading never
// strands the goroutine: it finishes its tokens and returns. Cancel ctx to stop the work
// itself; the goroutine then returns before the next forward pass and closes the channel.
func GenerateStream(ctx context.Context, m LanguageModel, maxContextLen int, tok Tokenizer, prompt string, maxNew int, p Policy) *Stream {
	g, err := seedGenerator(m, maxContextLen, tok, prompt, p)
	n := 0
	if err == nil {
		n = min(len(g.ids)+max(maxNew, 0), streamBuffer)
	}
	c := make(chan int, n)
	s := &Stream{C: c, Policy: p, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer close(c)
		if err != nil {
			s.err = err
			return
		}
		defer g.Close() // before the channel closes: a reader may start the next Generator then
		g.Reserve(maxNew)
		send := func(id int) bool {
			select {
			case c <- id:
				return true
			case <-ctx.Done():
				s.err = ctx.Err()
				return false
			}
		}
		for _, id := range g.ids {
			if !send(id) {
				return
			}
		}
		for i := 0; i < maxNew; i++ {
			if s.err = ctx.Err(); s.err != nil {
				return
			}
			st, err := g.Step()
			if err != nil {
				s.err = err
				return
			}
			if st.End || !send(st.Token) {
				return
			}
		}
	}()
	return s
}

// GenerateChan is the seed's streaming call: the prompt's ids, then up to maxNew new ids at
// the given temperature, stopping at the end token; the channel is then closed. The
// goroutine behind it never blocks on a reader that stopped reading (see GenerateStream);
// to stop the work too, use GenerateChanContext.
//
// One difference from the seed: the seed's channel sent the end token and then closed;
// this one closes without sending it, so a reader never decodes <|endoftext|> into its
// text. Generate reports a stop at the end token in Generation.End.
func GenerateChan(m LanguageModel, maxContextLen int, tok Tokenizer, prompt string, maxNew int, temperature float64) <-chan int {
	return GenerateStream(context.Background(), m, maxContextLen, tok, prompt, maxNew, Policy{Temperature: temperature}).C
}

// GenerateChanContext is GenerateChan that stops, and closes the channel, when ctx is done.
func GenerateChanContext(ctx context.Context, m LanguageModel, maxContextLen int, tok Tokenizer, prompt string, maxNew int, temperature float64) <-chan int {
	return GenerateStream(ctx, m, maxContextLen, tok, prompt, maxNew, Policy{Temperature: temperature}).C
}

// seedGenerator is the Generator behind the seed's calls: cached over a *Model, uncached
// over any other LanguageModel, the window sliding by one past maxContextLen in both. An
// empty prompt starts from the end-of-text token, as GPT-2's unconditional samples do.
func seedGenerator(m LanguageModel, maxContextLen int, tok Tokenizer, prompt string, p Policy) (*Generator, error) {
	if m == nil || tok == nil {
		return nil, errors.New("gpt: generate: nil model or tokenizer")
	}
	if maxContextLen <= 0 {
		return nil, fmt.Errorf("gpt: generate: maxContextLen %d, want ≥ 1", maxContextLen)
	}
	ids := tok.Encode(prompt)
	if len(ids) == 0 {
		ids = []int{tok.EndTokenID()}
	}
	var g *Generator
	var err error
	if model, ok := m.(*Model); ok {
		g, err = NewGenerator(model, ids, p, true)
	} else {
		g, err = newGenerator(m, ids, p)
	}
	if err != nil {
		return nil, err
	}
	g.Window, g.Keep, g.EndID = maxContextLen, maxContextLen, tok.EndTokenID()
	if err := g.check(); err != nil {
		return nil, err
	}
	return g, nil
}
