package fast

import (
	"math"
	"sync"
)

// The row-by-row steps whose fast form is more than the readable loop split over the cores:
// the softmax and loss with the float32 exponential, and the LayerNorm backward with a
// partial sum of its weight gradients per core.

// CrossEntropy fills probs (N, V) with the softmax of each row of logits (N, V) and losses
// (N) with -log p(target), 0 where targets[n] is ignore; rows are split over the cores.
func CrossEntropy(probs, losses, logits []float32, targets []int, ignore, N, V int) {
	Chunks(N, 16, func(lo, hi int) {
		for n := lo; n < hi; n++ {
			l, p := logits[n*V:(n+1)*V], probs[n*V:(n+1)*V]
			mx := float32(math.Inf(-1))
			for _, x := range l {
				mx = max(mx, x)
			}
			var sum float32
			for i, x := range l {
				e := exp32(x - mx)
				p[i] = e
				sum += e
			}
			inv := 1 / sum
			for i := range p {
				p[i] *= inv
			}
			tgt := targets[n]
			if tgt == ignore {
				losses[n] = 0
				continue
			}
			// -log softmax computed from the logits, accurate even where p underflows.
			losses[n] = float32(math.Log(float64(sum))) - (l[tgt] - mx)
		}
	})
}

// LayernormBackward is the gradient of LayerNorm (llm.c's layernorm_backward), rows split
// over the cores; each chunk sums its own dweight/dbias, and the partial sums are added in
// chunk order, so the result does not depend on scheduling.
//
//	dinp (N, C)   dweight, dbias (C)   dout, inp (N, C)   weight (C)   mean, rstd (N)
func LayernormBackward(dinp, dweight, dbias, dout, inp, weight, mean, rstd []float32, N, C int) {
	nChunks := max(1, min(Workers(), N/64))
	partial := make([][]float32, nChunks) // (nChunks, 2C): dweight | dbias of each chunk
	var wg sync.WaitGroup
	for k := range nChunks {
		lo, hi := N*k/nChunks, N*(k+1)/nChunks
		partial[k] = make([]float32, 2*C)
		wg.Add(1)
		go func() {
			defer wg.Done()
			dw, db := partial[k][:C], partial[k][C:]
			layernormBackwardRows(dinp, dw, db, dout, inp, weight, mean, rstd, lo, hi, C)
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

// layernormBackwardRows is LayernormBackward on rows lo…hi-1, in float32.
func layernormBackwardRows(dinp, dw, db, dout, inp, weight, mean, rstd []float32, lo, hi, C int) {
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
}
