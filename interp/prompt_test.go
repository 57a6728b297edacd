package interp

import (
	"math"
	"testing"
)

// byteTokens is a tokenizer of one token per byte, for the reference model's 64 tokens.
type byteTokens struct{}

func (byteTokens) Encode(s string) []int {
	ids := make([]int, len(s))
	for i := range s {
		ids[i] = int(s[i]) % 64
	}
	return ids
}
func (byteTokens) Decode(ids []int) string {
	b := make([]byte, len(ids))
	for i, id := range ids {
		b[i] = byte(id + 64)
	}
	return string(b)
}
func (byteTokens) EndTokenID() int { return 0 }

// Each answer token's rank is one more than the tokens with a larger logit at its
// position, counted here from the logits of the whole sequence; its probability is the
// softmax there.
func TestTestPrompt(t *testing.T) {
	m, _ := readReference(t)
	pt, err := TestPrompt(m, byteTokens{}, "ABCDAB", "CD", 5)
	if err != nil {
		t.Fatal(err)
	}
	ids := byteTokens{}.Encode("ABCDABCD")
	out, err := m.ForwardAll([][]int{ids})
	if err != nil {
		t.Fatal(err)
	}
	if len(pt.Tokens) != 2 {
		t.Fatalf("%d answer tokens, want 2", len(pt.Tokens))
	}
	for i, at := range pt.Tokens {
		row := out.Row(0, 5+i)
		rank, sum := 1, 0.0
		for _, x := range row {
			if x > row[at.ID] {
				rank++
			}
			sum += math.Exp(float64(x))
		}
		p := math.Exp(float64(row[at.ID])) / sum
		if at.ID != ids[6+i] || at.Rank != rank || math.Abs(at.Prob-p) > 1e-6 || len(at.Top) != 5 {
			t.Errorf("answer token %d: id %d rank %d prob %.6f, %d top; want id %d rank %d prob %.6f, 5 top",
				i, at.ID, at.Rank, at.Prob, len(at.Top), ids[6+i], rank, p)
		}
	}
}
