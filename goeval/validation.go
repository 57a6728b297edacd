package goeval

import (
	"math"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// Validation is the loss over the validation windows.
type Validation struct {
	Windows, Tokens, Bytes int
	Loss                   float64 // nats per token, the mean over every predicted token
	BitsPerByte            float64 // the same total in bits, over the bytes of the predicted tokens
}

// ValidationLoss forwards non-overlapping windows of the block size cut from val in batches
// of B (every window, or n batches of windows spread evenly; gpt.Windows), and returns the mean loss per
// token and in bits per byte of the predicted tokens' text (the end-of-text token between
// files counts as no bytes).
func ValidationLoss(m *gpt.Model, tok *tokenizer.Tokenizer, val []int32, B, n int) (Validation, error) {
	T := m.Config.BlockSize
	var r Validation
	xs, ys, err := gpt.Windows(val, B, T, max(n, 0))
	if err != nil {
		return r, err
	}
	var nats float64
	for i := range xs {
		out, err := m.Forward(xs[i], ys[i])
		if err != nil {
			return r, err
		}
		k := len(xs[i]) * T
		nats += float64(out.Loss) * float64(k)
		r.Windows += len(xs[i])
		r.Tokens += k
		for _, row := range ys[i] {
			for _, id := range row {
				if !tok.IsSpecial(id) {
					r.Bytes += len(tok.Token(id))
				}
			}
		}
	}
	r.Loss = nats / float64(r.Tokens)
	r.BitsPerByte = nats / math.Ln2 / float64(r.Bytes)
	return r, nil
}
