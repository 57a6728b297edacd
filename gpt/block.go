package gpt

// block is one transformer block, pre-LayerNorm as in GPT-2 (nanoGPT's Block.forward), over
// the residual stream x (B, T, C); it returns the block's output, a.residual3:
//
//	resid_mid  = resid_pre + attn.c_proj(attention(attn.c_attn(ln_1(resid_pre))))
//	resid_post = resid_mid + mlp.c_proj(gelu(mlp.c_fc(ln_2(resid_mid))))
//
// An attention-only block (Config.AttnOnly) stops after the first line, which is then its
// output: resid_post = resid_pre + attn_out.
//
// Each line that computes a tensor of the table (hookpoints.go) hands it to r.at. a holds
// the block's outputs and what the backward pass reads (activations in model.go); x may be
// a.residual3 itself (inference reuses one set of buffers for every block).
func (r *run) block(l int, w *Block, x []float32, a layerActs) []float32 {
	N, C := r.B*r.T, r.cfg.Channels
	if r.fresh {
		r.steps = nil
	}
	r.at(l, "hook_resid_pre", x)
	r.layerNorm(l, "ln1.", a.ln1, a.ln1Mean, a.ln1Rstd, x, w.Ln1W, w.Ln1B, N)
	r.attention(l, w, a)
	if r.cfg.AttnOnly { // no MLP: the attention's add is the block's output
		residualForward(a.residual3, x, a.attproj, N*C)
		r.at(l, "hook_resid_post", a.residual3)
		return a.residual3
	}
	residualForward(a.residual2, x, a.attproj, N*C)
	r.at(l, "hook_resid_mid", a.residual2)

	mlpIn := r.copyIf(l, "hook_mlp_in", a.residual2)
	r.layerNorm(l, "ln2.", a.ln2, a.ln2Mean, a.ln2Rstd, mlpIn, w.Ln2W, w.Ln2B, N)
	r.mlp(l, w, a)
	residualForward(a.residual3, a.residual2, a.fcproj, N*C)
	r.at(l, "hook_resid_post", a.residual3)
	return a.residual3
}

// copyIf hands a copy of x to r.at as the tensor called site, when the model's config turns
// that hook point on and the watcher asks for it, and returns what the next step reads: the
// copy, or x itself (as TransformerLens's "mlp_in = resid_mid if not use_hook_mlp_in else
// hook_mlp_in(resid_mid.clone())").
func (r *run) copyIf(l int, site string, x []float32) []float32 {
	if !sites[site].isHook(r.cfg) || r.wants == nil || !r.wants(l, site) {
		if r.watch != nil {
			r.watch(l, site, x) // the same tensor: the Stepper's name for it, no op
		}
		return x
	}
	b := r.bufs()
	if b.mlpIn == nil {
		b.mlpIn = make([]float32, len(x))
	}
	c := b.mlpIn[:len(x)]
	copy(c, x)
	r.at(l, site, c)
	return c
}
