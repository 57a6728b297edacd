package main

import (
	"fmt"
	"io"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/interp"
	"github.com/gptnotes/gptnotes/tokenizer"
	"github.com/gptnotes/gptnotes/viz"
)

// The heads' part of `gptnotes evalmodel`: package interp measures, this file prints.
//
//   - previous token, duplicate token and induction: TransformerLens's head detector over
//     windows of held-out text (interp.ScoreHeadsAll);
//   - closing brace: the mean weight a token holding "}" puts on the token holding its "{"
//     (interp.Braces, scored per query).
//
// A head scoring near 1 does that one thing, and a student can see it in its pattern: a
// line just below the diagonal, or dots from each "}" back to its "{".

// heldOutWindows returns n windows of T tokens spread evenly over val.
func heldOutWindows(val []int32, T, n int) ([][]int, error) {
	if len(val) < T {
		return nil, fmt.Errorf("head scores: %d held-out tokens, fewer than one window of %d", len(val), T)
	}
	ws := make([][]int, n)
	for w := range ws {
		off := w * (len(val) - T) / max(1, n-1)
		ws[w] = make([]int, T)
		for i := range ws[w] {
			ws[w][i] = int(val[off+i])
		}
	}
	return ws, nil
}

// printHeads scores the heads on the windows and prints a table per kind, a row per
// layer, with the best head of each; it returns the brace map.
func printHeads(w io.Writer, m *gpt.Model, tok *tokenizer.Tokenizer, windows [][]int) (*gpt.LayerMap, error) {
	kinds, err := interp.ScoreHeadsAll(m, windows, []interp.Detector{interp.PreviousToken, interp.DuplicateToken, interp.Induction}, interp.ScoreOptions{})
	if err != nil {
		return nil, err
	}
	braces, err := interp.ScoreHeads(m, windows, interp.Braces(tok.Token), interp.ScoreOptions{PerQuery: true})
	if err != nil {
		return nil, err
	}
	pairs := 0
	for _, ids := range windows {
		pairs += len(interp.BracePairs(tok.Token, ids))
	}
	for _, lm := range kinds {
		printLayerMap(w, lm, fmt.Sprintf("heads, %s (TransformerLens's detector, over %d windows)", lm.Title, len(windows)))
	}
	printLayerMap(w, braces, fmt.Sprintf("heads, mean attention of a closing brace on its opening brace (over %s brace pairs)", gpt.Commas(pairs)))
	return braces, nil
}

func printLayerMap(w io.Writer, lm *gpt.LayerMap, title string) {
	fmt.Fprintf(w, "%s:\n", title)
	for l, row := range lm.Values {
		fmt.Fprintf(w, "  layer %d:", l)
		for _, v := range row {
			fmt.Fprintf(w, " %.2f", v)
		}
		fmt.Fprintln(w)
	}
	l, h, v := lm.Max()
	fmt.Fprintf(w, "  best: layer %d head %d, %.2f\n", l, h, v)
}

// headFigure draws the pattern of one head on a short snippet, for the model card.
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
