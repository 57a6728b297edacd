package gpt

import (
	"fmt"
	"math"
)

// AdamW is the optimizer GPT-2 is trained with, following nanoGPT's configure_optimizers:
// Adam with bias correction and decoupled weight decay, where only the tensors of two or
// more dimensions decay (the matrices and both tables); biases and LayerNorm parameters do
// not. Before each update the gradient is clipped to a global L2 norm.
//
// The moments M and V are slabs laid out like Params.Data, so the optimizer state of a
// checkpoint is two more tensors of the parameters' shape.
type AdamW struct {
	Beta1       float32 // e.g. 0.9
	Beta2       float32 // e.g. 0.95
	Eps         float32 // e.g. 1e-8
	WeightDecay float32 // e.g. 0.1, applied only where Decay is true
	ClipNorm    float64 // e.g. 1.0; the global gradient norm is scaled down to this; 0 disables

	Steps int       // updates taken so far; bias correction uses Steps+1 for the next one
	M     []float32 // (len(Params.Data)) first moment, in slab order
	V     []float32 // (len(Params.Data)) second moment, in slab order
	Decay []bool    // (len(Params.Tensors)) whether each tensor decays: len(Shape) >= 2

	spans []span // contiguous slab ranges with the same decay flag
}

// span is a half-open range [lo, hi) of the slab and whether it decays.
type span struct {
	lo, hi int
	decay  bool
}

// NewAdamW makes an optimizer for p with nanoGPT's defaults: betas (0.9, 0.95),
// eps 1e-8, weight decay 0.1, gradient clipping at norm 1.0.
func NewAdamW(p *Params) *AdamW {
	o := &AdamW{
		Beta1: 0.9, Beta2: 0.95, Eps: 1e-8, WeightDecay: 0.1, ClipNorm: 1.0,
		M:     make([]float32, len(p.Data)),
		V:     make([]float32, len(p.Data)),
		Decay: make([]bool, len(p.Tensors)),
	}
	for i, t := range p.Tensors {
		o.Decay[i] = len(t.Shape) >= 2
		lo, hi := t.Offset, t.Offset+t.Size()
		if n := len(o.spans); n > 0 && o.spans[n-1].decay == o.Decay[i] && o.spans[n-1].hi == lo {
			o.spans[n-1].hi = hi
		} else {
			o.spans = append(o.spans, span{lo, hi, o.Decay[i]})
		}
	}
	return o
}

// GradNorm is the global L2 norm of the gradient slab, accumulated in float64.
//
//	grads [3, 4] → 5
func GradNorm(grads []float32) float64 {
	var s float64
	for _, g := range grads {
		s += float64(g) * float64(g)
	}
	return math.Sqrt(s)
}

// Update takes one AdamW step on p with learning rate lr, using the gradient g clipped to
// global norm o.ClipNorm (g itself is left as it is). It returns the gradient norm before
// clipping, and an error without touching p if that norm is NaN or infinite. p and g must have the
// layout the optimizer was made for.
//
// For every parameter w with gradient g, at step t = Steps+1:
//
//	m = β1·m + (1-β1)·g          v = β2·v + (1-β2)·g²
//	m̂ = m/(1-β1^t)               v̂ = v/(1-β2^t)
//	w = w - lr·(m̂/(√v̂+ε) + λ·w)  (λ = WeightDecay where the tensor decays, else 0)
func (o *AdamW) Update(p, g *Params, lr float64) (float64, error) {
	if len(p.Data) != len(o.M) || len(g.Data) != len(o.M) {
		return 0, fmt.Errorf("gpt: adamw: %d parameters and %d gradients, optimizer made for %d", len(p.Data), len(g.Data), len(o.M))
	}
	norm := GradNorm(g.Data)
	if math.IsNaN(norm) || math.IsInf(norm, 0) {
		return norm, fmt.Errorf("gpt: adamw: gradient norm is %v", norm)
	}
	scale := float32(1)
	if o.ClipNorm > 0 && norm > o.ClipNorm {
		scale = float32(o.ClipNorm / norm)
	}
	o.Steps++
	t := float64(o.Steps)
	c1 := float32(1 - math.Pow(float64(o.Beta1), t)) // bias corrections
	c2 := float32(1 - math.Pow(float64(o.Beta2), t))
	lr32 := float32(lr)

	// The update is elementwise: each span of the slab is split over the cores.
	for _, s := range o.spans {
		wd := float32(0)
		if s.decay {
			wd = o.WeightDecay
		}
		parallel(s.hi-s.lo, 1<<14, func(lo, hi int) {
			lo, hi = s.lo+lo, s.lo+hi
			adamwRange(p.Data[lo:hi], g.Data[lo:hi], o.M[lo:hi], o.V[lo:hi], scale, lr32, o.Beta1, o.Beta2, o.Eps, wd, c1, c2)
		})
	}
	return norm, nil
}

// adamwRange updates one contiguous range; gradients are multiplied by scale (clipping) first.
func adamwRange(w, g, m, v []float32, scale, lr, b1, b2, eps, wd, c1, c2 float32) {
	for i := range w {
		gi := g[i] * scale
		m[i] = b1*m[i] + (1-b1)*gi
		v[i] = b2*v[i] + (1-b2)*gi*gi
		mhat := m[i] / c1
		vhat := v[i] / c2
		w[i] -= lr * (mhat/(float32(math.Sqrt(float64(vhat)))+eps) + wd*w[i])
	}
}
