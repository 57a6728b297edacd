package gpt

import "math"

// IgnoreTarget marks a position whose target does not count in the loss (nanoGPT's
// ignore_index=-1), e.g. padding.
const IgnoreTarget = -1

// crossentropyForward turns logits into probabilities and the loss of each position,
// -log p(target) (llm.c's softmax_forward + crossentropy_forward), and returns their mean
// over the positions whose target is not IgnoreTarget:
//
//	probs   (N, V)   saved for the backward pass (dlogits = probs - onehot(target))
//	losses  (N)      0 where the target is ignored
//	logits  (N, V)
//	targets (N)
//
// Rows are split over the cores; the mean is summed over the losses in row order, so it does
// not depend on the split.
func crossentropyForward(probs, losses, logits []float32, targets []int, N, V int) float32 {
	parallelChunks(N, 16, func(lo, hi int) {
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
			if tgt == IgnoreTarget {
				losses[n] = 0
				continue
			}
			// -log softmax computed from the logits, accurate even where p underflows.
			losses[n] = float32(math.Log(float64(sum))) - (l[tgt] - mx)
		}
	})
	var total float64
	counted := 0
	for n, tgt := range targets[:N] {
		if tgt != IgnoreTarget {
			total += float64(losses[n])
			counted++
		}
	}
	if counted == 0 {
		return float32(math.NaN())
	}
	return float32(total / float64(counted))
}

// crossentropySoftmaxBackward is the gradient of the mean loss with respect to the
// logits (llm.c's crossentropy_softmax_backward): for every counted position n,
//
//	dlogits[n] += (probs[n] - onehot(target[n])) / count
//
// where count is the number of targets that are not IgnoreTarget; ignored rows get 0.
//
//	dlogits, probs (N, V)   targets (N)
func crossentropySoftmaxBackward(dlogits, probs []float32, targets []int, N, V int) {
	count := 0
	for _, t := range targets[:N] {
		if t != IgnoreTarget {
			count++
		}
	}
	if count == 0 {
		return
	}
	dloss := 1 / float32(count)
	parallelChunks(N, 16, func(lo, hi int) {
		for n := lo; n < hi; n++ {
			tgt := targets[n]
			if tgt == IgnoreTarget {
				continue
			}
			d, p := dlogits[n*V:(n+1)*V], probs[n*V:(n+1)*V]
			for i := range d {
				d[i] += p[i] * dloss
			}
			d[tgt] -= dloss
		}
	})
}
