package interp

import (
	"testing"

	"github.com/gptnotes/gptnotes/tokenizer"
)

func TestBracePairs(t *testing.T) {
	tok := tokenizer.MustGPT2()
	ids := tok.Encode("if a {\n\tb {\n\t}\n}\n}")
	pairs := BracePairs(tok.Token, ids)
	var got []string
	for _, p := range pairs {
		got = append(got, string(tok.Token(ids[p[0]]))+"…"+string(tok.Token(ids[p[1]])))
	}
	// Two pairs, the inner first; the last "}" has no "{" left and is skipped.
	if len(pairs) != 2 || pairs[0][0] <= pairs[1][0] || pairs[0][1] >= pairs[1][1] {
		t.Errorf("pairs %v (%q) in %q", pairs, got, tok.Decode(ids))
	}
}

// TestDetectionPatterns checks the three patterns on "A B C A B": TransformerLens's
// definitions, written out by hand.
func TestDetectionPatterns(t *testing.T) {
	ids := []int{7, 8, 9, 7, 8}
	for _, c := range []struct {
		d    Detector
		want [][2]int // the (query, key) pairs that are 1
	}{
		{PreviousToken, [][2]int{{1, 0}, {2, 1}, {3, 2}, {4, 3}}},
		{DuplicateToken, [][2]int{{3, 0}, {4, 1}}},
		{Induction, [][2]int{{3, 1}, {4, 2}}},
	} {
		p := c.d.Pattern(ids)
		n := 0
		for q := range p {
			for k := range p[q] {
				if p[q][k] {
					n++
				}
			}
		}
		for _, qk := range c.want {
			if !p[qk[0]][qk[1]] {
				t.Errorf("%s: (%d, %d) is 0, want 1", c.d.Name, qk[0], qk[1])
			}
		}
		if n != len(c.want) {
			t.Errorf("%s: %d ones, want %d", c.d.Name, n, len(c.want))
		}
	}
}

// TestScore checks the "mul" measure and its options on one 3 × 3 pattern.
func TestScore(t *testing.T) {
	pattern := []float32{
		1, 0, 0,
		0.5, 0.5, 0,
		0.2, 0.6, 0.2,
	}
	det := PreviousToken.Pattern([]int{1, 2, 3}) // (1,0), (2,1)
	for _, c := range []struct {
		opt  ScoreOptions
		want float64
	}{
		{ScoreOptions{}, (0.5 + 0.6) / 3},
		{ScoreOptions{ExcludeBOS: true}, 0.6 / (0.5 + 0.8)}, // (1, 0) is on BOS
		{ScoreOptions{ExcludeCurrent: true}, (0.5 + 0.6) / (0.5 + 0.8)},
		{ScoreOptions{PerQuery: true}, (0.5 + 0.6) / 2},
	} {
		if got := Score(pattern, det, c.opt); got-c.want > 1e-6 || c.want-got > 1e-6 {
			t.Errorf("Score with %+v = %.6f, want %.6f", c.opt, got, c.want)
		}
	}
}
