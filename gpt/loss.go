package gpt

import (
	"math"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

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
// The fast kernel splits the rows over the cores; the mean is summed over the losses in row order, so it does
// not depend on the split.
func crossentropyForward(probs, losses, logits []float32, targets []int, N, V int) float32 {
	if useFast {
		fast.CrossEntropy(probs, losses, logits, targets, IgnoreTarget, N, V)
	} else {
		for n := 0; n < N; n++ {
			l, p := logits[n*V:(n+1)*V], probs[n*V:(n+1)*V]
			lse := LogSumExp(l)
			for i, x := range l {
				p[i] = float32(math.Exp(float64(x) - lse))
			}
			losses[n] = 0
			if tgt := targets[n]; tgt != IgnoreTarget {
				// -log softmax computed from the logits, accurate even where p underflows.
				losses[n] = float32(lse - float64(l[tgt]))
			}
		}
	}
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

// LogSumExp is ln Σ exp(row[i]) in float64, with the largest logit taken out first so that
// no exp overflows: the softmax's normaliser, so exp(row[i] − LogSumExp) is the probability
// of i and LogSumExp − row[target] the cross-entropy of target.
func LogSumExp(row []float32) float64 {
	mx := math.Inf(-1)
	for _, x := range row {
		mx = math.Max(mx, float64(x))
	}
	var sum float64
	for _, x := range row {
		sum += math.Exp(float64(x) - mx)
	}
	return mx + math.Log(sum)
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
	parallel(N, 16, func(lo, hi int) {
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
