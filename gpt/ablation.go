package gpt

import "fmt"

// Ablation says what a head's output is replaced with when it is ablated.
type Ablation int

const (
	// ZeroAblation sets the head's z to zero at every position: the head writes only
	// attn.c_proj's bias share, nothing that depends on the input.
	ZeroAblation Ablation = iota
	// MeanAblation sets the head's z to its mean over the prompt's positions: the head
	// writes what it writes on average, so what is lost is what it says about this input.
	MeanAblation
)

func (a Ablation) String() string {
	if a == MeanAblation {
		return "mean-ablating"
	}
	return "zero-ablating"
}

// HeadAblation ablates every head in turn (layer by layer, one head at a time, through
// blocks.l.attn.hook_z) and measures what changes: with target < 0 the loss of predicting
// each next token of ids (mean cross-entropy over positions 0…T-2), with target ≥ 0 the
// logit of token target at the last position. Each value is ablated minus clean: a head
// the model needs raises the loss, or lowers the target's logit. It runs L·NH + 1 hooked
// forwards.
func (m *Model) HeadAblation(ids []int, how Ablation, target int) (*LayerMap, error) {
	const op = "head ablation"
	cfg := m.Config
	L, NH, C := cfg.Layers, cfg.Heads, cfg.Channels
	HS := C / NH
	T := len(ids)
	if target >= cfg.VocabSize {
		return nil, fmt.Errorf("gpt: %s: target %d outside the vocabulary [0, %d)", op, target, cfg.VocabSize)
	}
	if target < 0 && T < 2 {
		return nil, fmt.Errorf("gpt: %s: the loss needs at least 2 tokens, have %d", op, T)
	}
	measure := func(out *Output) float64 {
		if target >= 0 {
			return float64(out.Row(0, T-1)[target])
		}
		return nextTokenLoss(out, ids)
	}
	clean, cache, err := m.runHooked(op, [][]int{ids}, nil, func(n string) bool { return MatchHook("blocks.*.attn.hook_z", n) })
	if err != nil {
		return nil, err
	}
	base := measure(clean)
	what := "change in the loss"
	if target >= 0 {
		what = fmt.Sprintf("change in the logit of token %d", target)
	}
	lm := &LayerMap{Title: fmt.Sprintf("%s each head: %s (clean %.4f)", how, what, base), Columns: "head", Labels: headLabels(NH)}
	for l := 0; l < L; l++ {
		z := cache.MustGet(fmt.Sprintf("blocks.%d.attn.hook_z", l)) // (1, T, NH, HS)
		row := make([]float64, NH)
		for h := 0; h < NH; h++ {
			fill := make([]float32, HS) // zero, or the head's mean z over positions
			if how == MeanAblation {
				for t := 0; t < T; t++ {
					for i := range fill {
						fill[i] += z.Data[t*C+h*HS+i] / float32(T)
					}
				}
			}
			ablate := Hook{Name: z.Name, Fn: func(a *Activation) {
				for t := 0; t < T; t++ {
					copy(a.Data[t*C+h*HS:t*C+(h+1)*HS], fill)
				}
			}}
			out, _, err := m.runHooked(op, [][]int{ids}, []Hook{ablate}, nil)
			if err != nil {
				return nil, err
			}
			row[h] = measure(out) - base
		}
		lm.Values = append(lm.Values, row)
	}
	return lm, nil
}

// nextTokenLoss is the mean cross-entropy of predicting ids[t+1] from the logits at t,
// over t = 0…T-2 of sequence 0, in float64.
func nextTokenLoss(out *Output, ids []int) float64 {
	var sum float64
	for t := 0; t+1 < len(ids); t++ {
		row := out.Row(0, t)
		sum += LogSumExp(row) - float64(row[ids[t+1]])
	}
	return sum / float64(len(ids)-1)
}
