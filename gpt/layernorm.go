package gpt

import (
	"math"
	"sync"
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
// Rows are independent and split over the cores.
func layernormForward(out, mean, rstd, inp, weight, bias []float32, N, C int) {
	parallelChunks(N, 64, func(lo, hi int) {
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

// residualForward adds two streams: out = inp1 + inp2, all (N).
func residualForward(out, inp1, inp2 []float32, N int) {
	parallelChunks(N, 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = inp1[i] + inp2[i]
		}
	})
}

// layernormBackward is the gradient of layernormForward (llm.c's layernorm_backward).
// With n = (x-mean)·rstd the normalised row and dn = weight·dout:
//
//	dbias   += dout                dweight += n·dout
//	dinp    += rstd·(dn - mean(dn) - n·mean(dn·n))
//
//	dinp (N, C)   dweight, dbias (C)   dout, inp (N, C)   weight (C)   mean, rstd (N)
//
// Rows are split over the cores; each chunk sums its own dweight/dbias, and the partial
// sums are added in chunk order, so the result does not depend on scheduling.
func layernormBackward(dinp, dweight, dbias, dout, inp, weight, mean, rstd []float32, N, C int) {
	nChunks := max(1, min(workers(), N/64))
	partial := make([][]float32, nChunks) // (nChunks, 2C): dweight | dbias of each chunk
	var wg sync.WaitGroup
	for k := range nChunks {
		lo, hi := N*k/nChunks, N*(k+1)/nChunks
		partial[k] = make([]float32, 2*C)
		wg.Add(1)
		go func() {
			defer wg.Done()
			dw, db := partial[k][:C], partial[k][C:]
			for n := lo; n < hi; n++ {
				x, d, di := inp[n*C:(n+1)*C], dout[n*C:(n+1)*C], dinp[n*C:(n+1)*C]
				m, s := mean[n], rstd[n]
				var dnMean, dnNormMean float32
				for i := range x {
					norm := (x[i] - m) * s
					dn := weight[i] * d[i]
					dnMean += dn
					dnNormMean += dn * norm
				}
				dnMean /= float32(C)
				dnNormMean /= float32(C)
				for i := range x {
					norm := (x[i] - m) * s
					dn := weight[i] * d[i]
					db[i] += d[i]
					dw[i] += norm * d[i]
					di[i] += s * (dn - dnMean - norm*dnNormMean)
				}
			}
		}()
	}
	wg.Wait()
	for _, p := range partial {
		for i := 0; i < C; i++ {
			dweight[i] += p[i]
			dbias[i] += p[C+i]
		}
	}
}

// residualBackward is the gradient of residualForward: both inputs get dout.
//
//	dinp1, dinp2, dout (N)
func residualBackward(dinp1, dinp2, dout []float32, N int) {
	for i := 0; i < N; i++ {
		dinp1[i] += dout[i]
		dinp2[i] += dout[i]
	}
}
