package check

import (
	"fmt"
	"math"
)

// GELU checks a student's GELU in GPT-2's tanh approximation,
// ½·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), on every value of blocks.l.mlp.hook_pre of a
// block of the shipped model, against the model's blocks.l.mlp.hook_post.
//
//	v := check.GELU(func(x float32) float32 { … })
func GELU(f func(x float32) float32) *Verdict {
	const op = "GELU"
	p, err := draw(op)
	if err != nil {
		return failed(op, err)
	}
	s := p.stepper()
	in := rows(runTo(s, p.block("mlp.hook_pre")).Output)
	model := rows(runTo(s, p.block("mlp.hook_post")).Output)
	v := &Verdict{Op: op, Case: fmt.Sprintf("mlp.hook_pre of block %d, over %s", p.layer, p.tokens()), Tol: 1e-5}
	yours := make(grid, len(in))
	if msg := eachRow(len(in), "position", func(t int) {
		yours[t] = make([]float32, len(in[t]))
		for i, x := range in[t] {
			yours[t][i] = f(x)
		}
	}); msg != "" {
		v.Problem = msg
		return v
	}
	where := func(r, c int) string { return fmt.Sprintf("position %d, unit %d (x = %.4g)", r, c, in[r][c]) }
	v.compare(yours, model, where, "one row of 4C per position")
	if !v.OK {
		v.recognise(yours, model, geluMistakes(in))
	}
	return v
}

// geluWrongWays are the mistakes a GELU is checked for, with what each says.
var geluWrongWays = []struct {
	says string
	f    func(x float64) float64
}{
	{"the exact GELU, x·Φ(x) with erf: GPT-2 uses the tanh approximation, which differs from it by up to 4.7e-4 (near x = ±2.7).",
		func(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) }},
	{"ReLU, max(0, x), instead of GELU.", func(x float64) float64 { return math.Max(0, x) }},
	{"the sigmoid approximation x·σ(1.702x) instead of the tanh one.",
		func(x float64) float64 { return x / (1 + math.Exp(-1.702*x)) }},
	{"the cubic term left out: tanh(√(2/π)·x) instead of tanh(√(2/π)·(x + 0.044715·x³)).",
		func(x float64) float64 { return 0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*x)) }},
	{"the ½ left out: x·(1 + tanh(…)) is twice GELU.",
		func(x float64) float64 { return x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x))) }},
}

func geluMistakes(x grid) []mistake {
	var ms []mistake
	for _, m := range geluWrongWays {
		ms = append(ms, mistake{says: m.says, out: rowwise(x, func(r []float32) []float32 {
			out := make([]float32, len(r))
			for i, v := range r {
				out[i] = float32(m.f(float64(v)))
			}
			return out
		})})
	}
	return ms
}
