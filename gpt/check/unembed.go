package check

import (
	"fmt"
	"math"

	"github.com/gptnotes/gptnotes/gpt"
)

// Unembed checks a student's unembedding of one position: x (C) is ln_f's output at one
// position, wte (V, C) the token table; it returns the logits (V), one dot product x·wte[v]
// per token (GPT-2 reuses the token table as its output layer, with no bias). The inputs
// are ln_final.out of the shipped model at two positions, and the output is compared with
// the model's logits.
//
//	v := check.Unembed(func(x []float32, wte [][]float32) []float32 { … })
func Unembed(f func(x []float32, wte [][]float32) []float32) *Verdict {
	const op = "the unembedding"
	p, err := draw(op)
	if err != nil {
		return failed(op, err)
	}
	s := p.stepper()
	lnf := rows(runTo(s, "ln_final.out").Output)
	logits := runTo(s, "logits")
	all := rows(logits.Output)
	wteAct := logits.Inputs[1] // (V, C)
	V, C := wteAct.Shape[0], wteAct.Shape[1]
	wte := make(grid, V)
	for t := range wte {
		wte[t] = wteAct.Data[t*C : (t+1)*C]
	}
	T := len(lnf)
	positions := []int{p.rng.IntN(T - 1), T - 1}
	var in, model grid
	for _, t := range positions {
		in, model = append(in, lnf[t]), append(model, all[t])
	}
	v := &Verdict{Op: op, Case: fmt.Sprintf("ln_final.out at positions %d and %d of %s", positions[0], positions[1], p.tokens()), Tol: 1e-5}
	yours := make(grid, len(in))
	if msg := eachRow(len(in), "row", func(r int) { yours[r] = f(clone(in)[r], clone(wte)) }); msg != "" {
		v.Problem = msg
		return v
	}
	where := func(r, c int) string {
		return fmt.Sprintf("position %d, token %d %q", positions[r], c, p.tok.Decode([]int{c}))
	}
	v.compare(yours, model, where, "V logits per position")
	if !v.OK {
		probs, logProbs := make(grid, len(model)), make(grid, len(model))
		for r, row := range model {
			probs[r], logProbs[r] = make([]float32, len(row)), make([]float32, len(row))
			lse := gpt.LogSumExp(row)
			for i, z := range row {
				probs[r][i] = float32(math.Exp(float64(z) - lse))
				logProbs[r][i] = float32(float64(z) - lse)
			}
		}
		v.recognise(yours, model, []mistake{
			{"probabilities, not logits: the softmax belongs to the loss or the sampler, after the unembedding.", probs},
			{"log-probabilities, not logits: the log-softmax belongs to the loss, after the unembedding.", logProbs},
		})
	}
	return v
}
