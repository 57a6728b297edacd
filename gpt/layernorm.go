package gpt

import (
	"math"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// lnEps is GPT-2's LayerNorm epsilon.
const lnEps = 1e-5

// layerNorm is LayerNorm (ln_1, ln_2 or ln_f, by prefix) on N rows of x (N, C), into out,
// in three steps, each with its name in the table:
//
//	scale      = √(var(x) + 1e-5)        prefix+"hook_scale"       (N, 1)
//	normalized = (x − mean(x)) / scale   prefix+"hook_normalized"  (N, C)
//	out        = normalized·weight + bias   prefix+"out"           (N, C)
//
// mean and rstd (N), when not nil, receive the mean and 1/scale for the backward pass. out
// may be x. Fused (fast.go), it is layernormForward: one pass over each row.
func (r *run) layerNorm(l int, prefix string, out, mean, rstd, x, weight, bias []float32, N int) {
	s := lnSites[prefix]
	C := r.cfg.Channels
	if r.fused() {
		layernormForward(out, mean, rstd, x, weight, bias, N, C)
		r.at(l, s.out, out[:N*C])
		return
	}
	b := r.bufs()
	scale, normalized := b.scale[:N], b.normalized[:N*C]
	mu := make([]float64, N)
	for n := 0; n < N; n++ {
		row := x[n*C : (n+1)*C]
		mu[n] = sum64(row) / float64(C)
		scale[n] = float32(math.Sqrt(sumSquaredDev64(row, mu[n])/float64(C) + lnEps))
	}
	r.at(l, s.scale, scale)
	for n := 0; n < N; n++ {
		mf, rs := float32(mu[n]), 1/scale[n]
		for i, v := range x[n*C : (n+1)*C] {
			normalized[n*C+i] = (v - mf) * rs
		}
		if mean != nil {
			mean[n], rstd[n] = mf, rs
		}
	}
	r.at(l, s.normalized, normalized)
	for n := 0; n < N; n++ {
		o, nr := out[n*C:(n+1)*C], normalized[n*C:(n+1)*C]
		for i := range o {
			o[i] = nr[i]*weight[i] + bias[i]
		}
	}
	r.at(l, s.out, out[:N*C])
}

// lnSites are the names of a LayerNorm's three tensors in the table, by its prefix.
var lnSites = map[string]struct{ scale, normalized, out string }{
	"ln1.":      {"ln1.hook_scale", "ln1.hook_normalized", "ln1.out"},
	"ln2.":      {"ln2.hook_scale", "ln2.hook_normalized", "ln2.out"},
	"ln_final.": {"ln_final.hook_scale", "ln_final.hook_normalized", "ln_final.out"},
}

// layernormForward is LayerNorm as one kernel (llm.c's layernorm_forward): each row of inp
// normalised to mean 0 and variance 1, then scaled and shifted, in one pass:
//
//	out        (N, C)
//	mean, rstd (N)      saved for the backward pass; nil when not training
//	inp        (N, C)
//	weight, bias (C)
//
// Its fast side splits the rows over the cores; its readable side is run.layerNorm's steps.
func layernormForward(out, mean, rstd, inp, weight, bias []float32, N, C int) {
	if !useFast {
		r := &run{cfg: Config{Channels: C}, B: 1, T: N}
		r.layerNorm(-1, "ln_final.", out, mean, rstd, inp, weight, bias, N)
		return
	}
	lnRegion.Chunks(N, 64, lnArgs{out, mean, rstd, inp, weight, bias, C})
}

// lnArgs are layernormForward's operands; lnRegion normalises rows lo…hi-1.
type lnArgs struct {
	out, mean, rstd, inp, weight, bias []float32
	C                                  int
}

var lnRegion = fast.Region[lnArgs]{Body: func(a *lnArgs, lo, hi int) {
	layernormRows(a.out, a.mean, a.rstd, a.inp, a.weight, a.bias, lo, hi, a.C)
}}

// layernormRows is layernormForward's fast side on rows lo…hi-1.
func layernormRows(out, mean, rstd, inp, weight, bias []float32, lo, hi, C int) {
	for n := lo; n < hi; n++ {
		x := inp[n*C : (n+1)*C]
		m := sum64(x) / float64(C)
		variance := sumSquaredDev64(x, m) / float64(C)
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

// sum64 is Σ x in float64, over four running sums so that the additions do not wait on
// each other.
func sum64(x []float32) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += float64(x[i])
		s1 += float64(x[i+1])
		s2 += float64(x[i+2])
		s3 += float64(x[i+3])
	}
	for ; i < len(x); i++ {
		s0 += float64(x[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// sumSquaredDev64 is Σ (x - m)² in float64, like sum64.
func sumSquaredDev64(x []float32, m float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		d0, d1, d2, d3 := float64(x[i])-m, float64(x[i+1])-m, float64(x[i+2])-m, float64(x[i+3])-m
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(x); i++ {
		d := float64(x[i]) - m
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// layernormBackward is the gradient of layernormForward (llm.c's layernorm_backward).
// With n = (x-mean)·rstd the normalised row and dn = weight·dout:
//
//	dbias   += dout                dweight += n·dout
//	dinp    += rstd·(dn - mean(dn) - n·mean(dn·n))
//
//	dinp (N, C)   dweight, dbias (C)   dout, inp (N, C)   weight (C)   mean, rstd (N)
//
// The fast kernel splits the rows over the cores, each summing its own dweight and dbias.
func layernormBackward(dinp, dweight, dbias, dout, inp, weight, mean, rstd []float32, N, C int) {
	if useFast {
		fast.LayernormBackward(dinp, dweight, dbias, dout, inp, weight, mean, rstd, N, C)
		return
	}
	for n := 0; n < N; n++ {
		x, d, di := inp[n*C:(n+1)*C], dout[n*C:(n+1)*C], dinp[n*C:(n+1)*C]
		var dnMean, dnNormMean float64
		for i := range x {
			norm := float64((x[i] - mean[n]) * rstd[n])
			dn := float64(weight[i] * d[i])
			dnMean += dn
			dnNormMean += dn * norm
		}
		dnMean /= float64(C)
		dnNormMean /= float64(C)
		for i := range x {
			norm := float64((x[i] - mean[n]) * rstd[n])
			dn := float64(weight[i] * d[i])
			dbias[i] += d[i]
			dweight[i] += float32(norm) * d[i]
			di[i] += float32(float64(rstd[n]) * (dn - dnMean - norm*dnNormMean))
		}
	}
}
