package gpt

import "fmt"

// RunWithGradients is the backward half of RunWithCache: the gradient of a function of
// the logits (a metric: a logit difference, a log-probability) with respect to the
// activations at hook points, from one forward and one backward of the model's own
// (Forward, then Backward's pass from the metric instead of the loss). It is what
// attribution patching needs, and what TransformerLens gets from backward hooks.

// GradientNames are the hook points RunWithGradients can return: the ones the backward
// pass holds a whole gradient of.
var GradientNames = []string{
	"blocks.*.hook_resid_pre", "blocks.*.attn.hook_z", "blocks.*.hook_attn_out",
	"blocks.*.hook_resid_mid", "blocks.*.hook_mlp_out", "blocks.*.hook_resid_post",
}

// RunWithGradients runs the model over one sequence of token ids, asks grad for the
// gradient of the metric with respect to the logits (B·T·V = T·V values, as Output.Logits
// is laid out), runs the backward pass from it, and returns the forward's output and a
// cache whose activations are the gradients at the hook points matching names (patterns
// of GradientNames' points; none means all of them), each with its hook point's shape.
// It overwrites m.Grads with the metric's gradient of every parameter. An FP32 model only.
//
//	out, grads, err := m.RunWithGradients(ids, func(out *gpt.Output) []float32 {
//		d := make([]float32, len(out.Logits))
//		last := (out.T - 1) * out.V
//		d[last+right], d[last+wrong] = 1, -1 // d(logit[right] − logit[wrong]) / d logits
//		return d
//	}, "blocks.*.attn.hook_z")
func (m *Model) RunWithGradients(ids []int, grad func(out *Output) []float32, names ...string) (*Output, *ActivationCache, error) {
	const op = "run with gradients"
	cfg := m.Config
	if len(names) == 0 {
		names = present(GradientNames, HookNames(cfg))
	}
	for _, p := range names {
		ok := false
		for _, n := range HookNames(cfg) {
			if MatchHook(p, n) && matchedByAny(n, GradientNames) {
				ok = true
				break
			}
		}
		if !ok {
			return nil, nil, fmt.Errorf("gpt: %s: %q matches no hook point the backward pass holds a gradient of (see gpt.GradientNames)", op, p)
		}
	}
	// Targets only make Forward keep what the backward pass reads; the loss is not used.
	out, err := m.Forward([][]int{ids}, [][]int{ids})
	if err != nil {
		return nil, nil, fmt.Errorf("gpt: %s: %w", op, err)
	}
	d := grad(out)
	if len(d) != len(out.Logits) {
		return nil, nil, fmt.Errorf("gpt: %s: the metric's gradient has %d values, the logits %d", op, len(d), len(out.Logits))
	}
	T := len(ids)
	c := &ActivationCache{Config: cfg, IDs: [][]int{append([]int(nil), ids...)}, B: 1, T: T, model: m, acts: map[string]*Activation{}}
	record := func(name string, g []float32) {
		if !matchedByAny(name, names) {
			return
		}
		p, err := LookupHook(cfg, name)
		if err != nil {
			panic(err) // backward names only hook points of the table
		}
		c.add(&Activation{Name: name, Shape: p.Shape(cfg, 1, T), Data: append([]float32(nil), g...)})
	}
	if err := m.backward(d, record); err != nil {
		return nil, nil, fmt.Errorf("gpt: %s: %w", op, err)
	}
	return out, c, nil
}
