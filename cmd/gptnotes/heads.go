package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/tokenizer"
	"github.com/gptnotes/gptnotes/viz"
)

// headScores are two behaviours of every attention head, measured over windows of held-out
// text with the cached patterns (blocks.l.attn.hook_pattern):
//
//   - previous token: the mean weight a query puts on the position just before it (over
//     every query but the first);
//   - closing brace: the mean weight a token holding "}" puts on the token holding its "{"
//     (braces paired with a stack over the window's tokens, skipping a window's unmatched
//     ones; a brace inside a string or comment is rare enough in Go source to ignore).
//
// A head scoring near 1 on one of them does that one thing, and a student can see it in
// its pattern: a line just below the diagonal, or dots from each "}" back to its "{".
type headScores struct {
	L, NH  int
	prev   []float64 // (L·NH)
	brace  []float64 // (L·NH)
	pairs  int       // brace pairs measured
	tokens int       // positions measured
}

// scoreHeads runs windows windows of T tokens, spread evenly over val.
func scoreHeads(m *gpt.Model, tok *tokenizer.Tokenizer, val []int32, windows int) (headScores, error) {
	cfg := m.Config
	T, L, NH := cfg.BlockSize, cfg.Layers, cfg.Heads
	s := headScores{L: L, NH: NH, prev: make([]float64, L*NH), brace: make([]float64, L*NH)}
	if len(val) < T {
		return s, fmt.Errorf("head scores: %d held-out tokens, fewer than one window of %d", len(val), T)
	}
	for w := 0; w < windows; w++ {
		off := w * (len(val) - T) / max(1, windows-1)
		ids := make([]int, T)
		for i := range ids {
			ids[i] = int(val[off+i])
		}
		_, cache, err := m.RunWithCache(ids, "blocks.*.attn.hook_pattern")
		if err != nil {
			return s, fmt.Errorf("head scores: window %d: %w", w, err)
		}
		pairs := bracePairs(tok, ids)
		s.pairs += len(pairs)
		s.tokens += T - 1
		for l := 0; l < L; l++ {
			p := cache.MustGet(fmt.Sprintf("blocks.%d.attn.hook_pattern", l)).Data // (1, NH, T, T)
			for h := 0; h < NH; h++ {
				at := func(q, k int) float64 { return float64(p[(h*T+q)*T+k]) }
				for q := 1; q < T; q++ {
					s.prev[l*NH+h] += at(q, q-1)
				}
				for _, pr := range pairs {
					s.brace[l*NH+h] += at(pr[1], pr[0])
				}
			}
		}
	}
	for i := range s.prev {
		s.prev[i] /= float64(max(1, s.tokens))
		s.brace[i] /= float64(max(1, s.pairs))
	}
	return s, nil
}

// bracePairs pairs the tokens holding "{" with those holding the matching "}":
// {open position, close position}. A token holding both, or several, is skipped.
func bracePairs(tok *tokenizer.Tokenizer, ids []int) [][2]int {
	var stack []int
	var pairs [][2]int
	for t, id := range ids {
		b := tok.Token(id)
		open, close := bytes.Count(b, []byte("{")), bytes.Count(b, []byte("}"))
		switch {
		case open == 1 && close == 0:
			stack = append(stack, t)
		case close == 1 && open == 0 && len(stack) > 0:
			pairs = append(pairs, [2]int{stack[len(stack)-1], t})
			stack = stack[:len(stack)-1]
		}
	}
	return pairs
}

// best returns the head with the highest score: its layer, head and score.
func best(scores []float64, NH int) (l, h int, score float64) {
	i := 0
	for j, s := range scores {
		if s > scores[i] {
			i = j
		}
	}
	return i / NH, i % NH, scores[i]
}

// print writes the two tables, a row per layer, and the best head of each behaviour.
func (s headScores) print(w io.Writer) {
	for _, b := range []struct {
		name   string
		scores []float64
		over   string
	}{
		{"previous token", s.prev, fmt.Sprintf("%s queries", gpt.Commas(s.tokens))},
		{"closing brace → its opening brace", s.brace, fmt.Sprintf("%s brace pairs", gpt.Commas(s.pairs))},
	} {
		fmt.Fprintf(w, "heads, mean attention to the %s (over %s):\n", b.name, b.over)
		for l := 0; l < s.L; l++ {
			fmt.Fprintf(w, "  layer %d:", l)
			for h := 0; h < s.NH; h++ {
				fmt.Fprintf(w, " %.2f", b.scores[l*s.NH+h])
			}
			fmt.Fprintln(w)
		}
		l, h, score := best(b.scores, s.NH)
		fmt.Fprintf(w, "  best: layer %d head %d, %.2f\n", l, h, score)
	}
}

// headFigure draws the pattern of one head on a short snippet, for the README.
func headFigure(m *gpt.Model, tok *tokenizer.Tokenizer, snippet string, layer, head int, path string) error {
	ids := tok.Encode(snippet)
	_, cache, err := m.RunWithCache(ids, fmt.Sprintf("blocks.%d.attn.hook_pattern", layer))
	if err != nil {
		return err
	}
	a := cache.MustGet(fmt.Sprintf("blocks.%d.attn.hook_pattern", layer))
	T := len(ids)
	names := make([]string, T)
	for i, id := range ids {
		names[i] = string(tok.Token(id))
	}
	fig, err := viz.AttentionMap(a.Data[head*T*T:(head+1)*T*T], names, layer, head)
	if err != nil {
		return err
	}
	return viz.Save(fig, path)
}
