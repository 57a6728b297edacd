package gpt

import "math"

// lnEps is GPT-2's LayerNorm epsilon.
const lnEps = 1e-5

// layernormForward normalises each row of inp to mean 0 and variance 1, then scales and
// shifts it (llm.c's layernorm_forward):
//
//	out        (N, C)
//	mean, rstd (N)      saved for the backward pass; nil when not training
//	inp        (N, C)
//	weight, bias (C)
func layernormForward(out, mean, rstd, inp, weight, bias []float32, N, C int) {
	for n := 0; n < N; n++ {
		x := inp[n*C : (n+1)*C]
		var m float64
		for _, v := range x {
			m += float64(v)
		}
		m /= float64(C)
		var variance float64
		for _, v := range x {
			d := float64(v) - m
			variance += d * d
		}
		variance /= float64(C)
		s := 1 / math.Sqrt(variance+lnEps)
		o := out[n*C : (n+1)*C]
		mf, sf := float32(m), float32(s)
		for i, v := range x {
			o[i] = (v-mf)*sf*weight[i] + bias[i]
		}
		if mean != nil {
			mean[n], rstd[n] = mf, sf
		}
	}
}

// residualForward adds two streams: out = inp1 + inp2, all (N).
func residualForward(out, inp1, inp2 []float32, N int) {
	for i := 0; i < N; i++ {
		out[i] = inp1[i] + inp2[i]
	}
}
