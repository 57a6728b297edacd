package goeval

import (
	"errors"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// GreedyPrompts are continued greedily, to show what the model writes when it is sure.
var GreedyPrompts = []string{
	"// Package bytes implements",
	"package main\n\nimport \"fmt\"\n\nfunc main() {",
	"func (r *Reader) Read(p []byte) (n int, err error) {",
}

// Greedy continues text greedily, cached, for n tokens or until the end token, and returns
// the new text.
func Greedy(m *gpt.Model, tok *tokenizer.Tokenizer, text string, n int) (string, error) {
	g, err := gpt.NewGenerator(m, tok.Encode(text), gpt.Greedy, true)
	if err != nil {
		return "", err
	}
	defer g.Close() // its cache serves the next Generator over m
	g.EndID = tok.EndTokenID()
	if _, err := g.Steps(n); err != nil && !errors.Is(err, gpt.ErrStopped) {
		return "", err
	}
	return tok.Decode(g.Generated()), nil
}
