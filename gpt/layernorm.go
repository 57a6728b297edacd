package gpt

import (
	"math"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// lnEps is GPT-2's LayerNorm epsilon.
const lnEps = 1e-5

// layernormForward normalises each row of inp to mean 0 and variance 1, then scales and
// shifts it (llm.c's layernorm_forward):
//
//	out        (N, C)
//	mean, rstd (N)      saved for the backward pass; nil when not training
//	inp        (N, C)
//	weight, bias (C)
//
// Rows are independent and, on the fast side, split over the cores.
func layernormForward(out, mean, rstd, inp, weight, bias []float32, N, C int) {
	parallel(N, 64, func(lo, hi int) {
		layernormRows(out, mean, rstd, inp, weight, bias, lo, hi, C)
	})
}

// layernormRows is layernormForward on rows lo…hi-1.
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
