package gpt

import (
	"errors"
	"fmt"
)

// This file is the backward pass (llm.c's gpt2_backward): after a Forward with targets,
// Backward walks the model in the reverse order of the forward and fills m.Grads with
// the gradient of the mean loss with respect to every parameter. Each step calls the
// *Backward function that sits beside its forward (layernormBackward in layernorm.go, …),
// reading the activations the forward kept. Like llm.c's, every *Backward accumulates (+=)
// into its gradient outputs; Backward zeroes them first.

// ErrNoForward is wrapped by Backward's error when there is no Forward with targets to
// differentiate.
var ErrNoForward = errors.New("gpt: backward: no forward pass with targets to differentiate")

// gradActs are the gradients of the activations (llm.c's grads_acts). Only one layer's
// worth exists: the backward pass reuses them for every block, from the last to the first.
//
//	dlogits           (B, T, V)
//	dlnf              (B, T, C)
//	dres3, dres2      (B, T, C)   d residual3 (the block's output) and d residual2
//	dfcproj, dattproj (B, T, C)
//	dln1, dln2, datty (B, T, C)
//	dqkv              (B, T, 3C)
//	dfch, dfchGelu    (B, T, 4C)
type gradActs struct {
	N                    int
	dlogits, dlnf        []float32
	dres3, dres2         []float32
	dfcproj, dattproj    []float32
	dln1, dln2, datty    []float32
	dqkv, dfch, dfchGelu []float32
	all                  [][]float32 // every buffer above, for zeroing
}

func newGradActs(cfg Config, N int) *gradActs {
	C, V := cfg.Channels, cfg.VocabSize
	g := &gradActs{N: N}
	for _, b := range []struct {
		p *[]float32
		n int
	}{
		{&g.dlogits, N * V}, {&g.dlnf, N * C}, {&g.dres3, N * C}, {&g.dres2, N * C},
		{&g.dfcproj, N * C}, {&g.dattproj, N * C}, {&g.dln1, N * C}, {&g.dln2, N * C},
		{&g.datty, N * C}, {&g.dqkv, N * 3 * C}, {&g.dfch, N * 4 * C}, {&g.dfchGelu, N * 4 * C},
	} {
		*b.p = make([]float32, b.n)
		g.all = append(g.all, *b.p)
	}
	return g
}

// Backward computes the gradient of the loss of the last Forward (which must have had
// targets) with respect to every parameter, into m.Grads, which has the same layout as
// m.Params. Gradients are overwritten, not accumulated across calls.
func (m *Model) Backward() error { return m.backward(nil, nil) }

// backward is Backward from dlogits (B·T, V), the gradient of some function of the
// logits, or from the loss when dlogits is nil. record, when not nil, sees the gradient
// at each hook point it passes, by the hook point's name, in backward order (gradients.go).
func (m *Model) backward(dlogits []float32, record func(name string, grad []float32)) error {
	if m.Params == nil || m.Precision != FP32 {
		return fmt.Errorf("gpt: backward: a %v model has no fp32 parameters to train; train in FP32", m.Precision)
	}
	a := m.acts
	if a == nil || !a.keep || a.targets == nil {
		return ErrNoForward
	}
	cfg := m.Config
	B, T, N := a.B, a.T, a.N
	C, V, NH := cfg.Channels, cfg.VocabSize, cfg.Heads
	if m.Grads == nil {
		g, err := NewParams(cfg)
		if err != nil {
			return err
		}
		m.Grads = g
	}
	if m.gacts == nil || m.gacts.N != N {
		m.gacts = newGradActs(cfg, N)
	}
	p, g, d := m.Params, m.Grads, m.gacts
	clear(g.Data)
	for _, buf := range d.all {
		clear(buf)
	}

	// loss → logits → ln_f
	if dlogits == nil {
		crossentropySoftmaxBackward(d.dlogits, a.probs, a.targets, N, V)
	} else {
		copy(d.dlogits, dlogits)
	}
	if record == nil {
		record = func(string, []float32) {}
	}
	logitsBackward(d.dlnf, g.Wte, d.dlogits, a.lnf, p.Wte, N, C, V)
	last := a.layer(cfg.Layers-1, C, NH).residual3
	layernormBackward(d.dres3, g.LnFW, g.LnFB, d.dlnf, last, p.LnFW, a.lnfMean, a.lnfRstd, N, C)

	// the blocks, last to first; d.dres3 holds the gradient of the block's output
	for l := cfg.Layers - 1; l >= 0; l-- {
		la, w, gw := a.layer(l, C, NH), &p.H[l], &g.H[l]
		x := a.encoded // the block's input
		if l > 0 {
			x = a.layer(l-1, C, NH).residual3
		}
		for _, buf := range [][]float32{d.dres2, d.dfcproj, d.dfchGelu, d.dfch, d.dln2, d.dattproj, d.datty, d.dqkv, d.dln1} {
			clear(buf)
		}
		p := fmt.Sprintf("blocks.%d.", l)
		record(p+"hook_resid_post", d.dres3)
		if cfg.AttnOnly { // residual3 = x + attproj: no MLP to go back through
			copy(d.dres2, d.dres3)
		} else {
			// residual3 = residual2 + fcproj
			residualBackward(d.dres2, d.dfcproj, d.dres3, N*C)
			matmulBackward(d.dfchGelu, gw.MlpCProjW, gw.MlpCProjB, d.dfcproj, la.fchGelu, w.MlpCProjW, N, 4*C, C)
			geluBackward(d.dfch, la.fch, d.dfchGelu, N*4*C)
			matmulBackward(d.dln2, gw.CFcW, gw.CFcB, d.dfch, la.ln2, w.CFcW, N, C, 4*C)
			record(p+"hook_mlp_out", d.dfcproj)
			layernormBackward(d.dres2, gw.Ln2W, gw.Ln2B, d.dln2, la.residual2, w.Ln2W, la.ln2Mean, la.ln2Rstd, N, C)
			record(p+"hook_resid_mid", d.dres2)
		}
		// residual2 = x + attproj; the gradient of x becomes the next dres3
		clear(d.dres3)
		residualBackward(d.dres3, d.dattproj, d.dres2, N*C)
		record(p+"hook_attn_out", d.dattproj)
		matmulBackward(d.datty, gw.AttnCProjW, gw.AttnCProjB, d.dattproj, la.atty, w.AttnCProjW, N, C, C)
		record(p+"attn.hook_z", d.datty)
		attentionBackward(d.dqkv, d.datty, la.qkv, la.att, B, T, C, NH)
		matmulBackward(d.dln1, gw.CAttnW, gw.CAttnB, d.dqkv, la.ln1, w.CAttnW, N, C, 3*C)
		layernormBackward(d.dres3, gw.Ln1W, gw.Ln1B, d.dln1, x, w.Ln1W, la.ln1Mean, la.ln1Rstd, N, C)
		record(p+"hook_resid_pre", d.dres3)
	}

	// the two tables
	encoderBackward(g.Wte, g.Wpe, d.dres3, a.ids, B, T, C)
	return nil
}
