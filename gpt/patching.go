package gpt

import "fmt"

// Patching is an activation-patching experiment: two prompts of equal length that differ
// where it matters (the clean one, "The Eiffel Tower is in", and a corrupted one, "The
// Colosseum is in"), and two answers whose logit difference at the last position says
// which prompt the model is answering ("Paris" − "Rome").
type Patching struct {
	Clean, Corrupted []int  // token ids, equal lengths
	Right, Wrong     int    // the answer to the clean prompt, and to the corrupted one
	Site             string // the block hook point patched, e.g. "hook_resid_pre" (the default), "attn.hook_z", "hook_mlp_out"
	Decoder          Decoder
}

// ActivationPatching runs the corrupted prompt L·T times, each time with one activation
// (p.Site of one block, at one position, every channel) replaced by its value in the
// clean run, and measures how much of the clean logit difference comes back:
//
//	(patched − corrupted) / (clean − corrupted)   for logit[Right] − logit[Wrong] at the last position
//
// 0 is no effect, 1 the clean answer fully restored, as TransformerLens's tutorials
// normalise it. The map is layer × position, positions labelled by the clean tokens
// (p.Decoder's text, or ids).
func (m *Model) ActivationPatching(p Patching) (*LayerMap, error) {
	const op = "activation patching"
	cfg := m.Config
	T := len(p.Clean)
	if p.Site == "" {
		p.Site = "hook_resid_pre"
	}
	switch {
	case T != len(p.Corrupted):
		return nil, fmt.Errorf("gpt: %s: the clean prompt has %d tokens, the corrupted one %d: they must have equal lengths", op, T, len(p.Corrupted))
	case p.Right < 0 || p.Right >= cfg.VocabSize || p.Wrong < 0 || p.Wrong >= cfg.VocabSize:
		return nil, fmt.Errorf("gpt: %s: answers %d and %d, want ids in [0, %d)", op, p.Right, p.Wrong, cfg.VocabSize)
	}
	point, err := LookupHook(cfg, "blocks.0."+p.Site)
	if err != nil {
		return nil, fmt.Errorf("gpt: %s: site %q: %w", op, p.Site, err)
	}
	if len(point.Dims) < 3 || point.Dims[0] != "B" || point.Dims[1] != "T" {
		return nil, fmt.Errorf("gpt: %s: site %q has shape %v; patching one position needs (B, T, …)", op, p.Site, point.Dims)
	}
	perPos := product(point.Shape(cfg, 1, T)[2:]) // values at one position

	diff := func(out *Output) float64 {
		row := out.Row(0, T-1)
		return float64(row[p.Right]) - float64(row[p.Wrong])
	}
	pattern := "blocks.*." + p.Site
	cleanOut, cleanCache, err := m.runHooked(op, [][]int{p.Clean}, nil, func(n string) bool { return MatchHook(pattern, n) })
	if err != nil {
		return nil, err
	}
	corrOut, _, err := m.runHooked(op, [][]int{p.Corrupted}, nil, nil)
	if err != nil {
		return nil, err
	}
	clean, corrupted := diff(cleanOut), diff(corrOut)
	if clean == corrupted {
		return nil, fmt.Errorf("gpt: %s: the clean and corrupted prompts give the same logit difference %.4g: nothing to recover", op, clean)
	}

	lm := &LayerMap{Title: fmt.Sprintf("patching %s from the clean run: logit difference recovered (clean %.3f, corrupted %.3f)", p.Site, clean, corrupted),
		Columns: "position", Labels: tokenLabels(p.Clean, p.Decoder)}
	for l := 0; l < cfg.Layers; l++ {
		name := fmt.Sprintf("blocks.%d.%s", l, p.Site)
		src := cleanCache.MustGet(name).Data
		row := make([]float64, T)
		for pos := 0; pos < T; pos++ {
			patch := Hook{Name: name, Fn: func(a *Activation) {
				copy(a.Data[pos*perPos:(pos+1)*perPos], src[pos*perPos:(pos+1)*perPos])
			}}
			out, _, err := m.runHooked(op, [][]int{p.Corrupted}, []Hook{patch}, nil)
			if err != nil {
				return nil, err
			}
			row[pos] = (diff(out) - corrupted) / (clean - corrupted)
		}
		lm.Values = append(lm.Values, row)
	}
	return lm, nil
}
