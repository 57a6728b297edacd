package check

import (
	"fmt"
	"math"
)

// LayerNorm checks a student's LayerNorm of one position: x (C) is the residual stream at
// one position, weight and bias (C) the LayerNorm's; it returns (x − mean)/√(variance +
// 1e-5)·weight + bias, the variance over the C channels without Bessel's correction. The
// inputs are the stream entering ln_1 or ln_2 of a block of the shipped model, every
// position; then the same stream scaled by 1e-3, where the variance is as small as the
// 1e-5 added to it. The output is compared with the model's blocks.l.ln1.out (or ln2.out).
//
//	v := check.LayerNorm(func(x, weight, bias []float32) []float32 { … })
func LayerNorm(f func(x, weight, bias []float32) []float32) *Verdict {
	const op = "LayerNorm"
	p, err := draw(op)
	if err != nil {
		return failed(op, err)
	}
	ln, stream := "ln1", "hook_resid_pre"
	if p.rng.IntN(2) == 1 {
		ln, stream = "ln2", "hook_resid_mid"
	}
	var first *Verdict
	for _, scale := range []float32{1, 1e-3} {
		s := p.stepper()
		x := runTo(s, p.block(stream)).Output
		for i := range x.Data {
			x.Data[i] *= scale
		}
		in := rows(x)
		out := runTo(s, p.block(ln+".out"))
		model := rows(out.Output)
		w, b := out.Inputs[1].Data, out.Inputs[2].Data
		v := &Verdict{Op: op, Case: fmt.Sprintf("%s of block %d, over %s", ln, p.layer, p.tokens()), Tol: 1e-5}
		if scale != 1 {
			v.Case += ", the stream scaled by 1e-3 (its variance near the 1e-5 added to it)"
		}
		yours := make(grid, len(in))
		if msg := eachRow(len(in), "position", func(t int) {
			yours[t] = f(append([]float32(nil), in[t]...), append([]float32(nil), w...), append([]float32(nil), b...))
		}); msg != "" {
			v.Problem = msg
			return v
		}
		where := func(r, c int) string { return fmt.Sprintf("position %d, channel %d", r, c) }
		v.compare(yours, model, where, "one row of C per position")
		if !v.OK {
			v.recognise(yours, model, layernormMistakes(in, w, b))
			return v
		}
		if first == nil {
			first = v
		}
	}
	first.Case += " (and again with the stream scaled by 1e-3)"
	return first
}

// layernormWay is one way, right or wrong, to normalise a row.
type layernormWay struct {
	bessel   bool // dividing the sum of squares by C−1
	noMean   bool // not subtracting the mean (RMSNorm)
	eps      float64
	epsOnStd bool // dividing by σ + eps instead of √(σ² + eps)
	byVar    bool // dividing by the variance instead of its square root
	noAffine bool // leaving out weight and bias
}

func (l layernormWay) apply(x, w, b []float32) []float32 {
	C := float64(len(x))
	var mean float64
	if !l.noMean {
		for _, v := range x {
			mean += float64(v)
		}
		mean /= C
	}
	var ss float64
	for _, v := range x {
		ss += (float64(v) - mean) * (float64(v) - mean)
	}
	variance := ss / C
	if l.bessel {
		variance = ss / (C - 1)
	}
	div := math.Sqrt(variance + l.eps)
	switch {
	case l.epsOnStd:
		div = math.Sqrt(variance) + l.eps
	case l.byVar:
		div = variance + l.eps
	}
	out := make([]float32, len(x))
	for i, v := range x {
		n := (float64(v) - mean) / div
		if !l.noAffine {
			n = n*float64(w[i]) + float64(b[i])
		}
		out[i] = float32(n)
	}
	return out
}

// layernormWrongWays are the mistakes a LayerNorm is checked for, with what each says.
var layernormWrongWays = []struct {
	says string
	way  layernormWay
}{
	{"the unbiased variance: dividing the sum of squares by C−1 (Bessel's correction, torch.var's default) instead of C, as LayerNorm does.",
		layernormWay{bessel: true, eps: 1e-5}},
	{"no epsilon: dividing by √variance without adding 1e-5 first.", layernormWay{eps: 0}},
	{"epsilon outside the square root: dividing by √variance + 1e-5 instead of √(variance + 1e-5).", layernormWay{eps: 1e-5, epsOnStd: true}},
	{"dividing by the variance instead of its square root, the standard deviation.", layernormWay{eps: 1e-5, byVar: true}},
	{"the mean not subtracted: that is RMSNorm (LLaMA's), not GPT-2's LayerNorm.", layernormWay{eps: 1e-5, noMean: true}},
	{"weight and bias left out: the row is normalised but not scaled and shifted by the LayerNorm's own parameters.",
		layernormWay{eps: 1e-5, noAffine: true}},
}

func layernormMistakes(x grid, w, b []float32) []mistake {
	var ms []mistake
	for _, m := range layernormWrongWays {
		ms = append(ms, mistake{says: m.says, out: rowwise(x, func(r []float32) []float32 { return m.way.apply(r, w, b) })})
	}
	return ms
}
