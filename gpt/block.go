package gpt

// blockForward runs one transformer block over N = B·T positions, pre-LayerNorm as in
// GPT-2 (nanoGPT's Block.forward):
//
//	residual2 = x + attn.c_proj(attention(attn.c_attn(ln_1(x))))
//	residual3 = residual2 + mlp.c_proj(gelu(mlp.c_fc(ln_2(residual2))))
//
// a holds the block's outputs and saved activations (see activations in model.go); x is
// (N, C) and may be the same buffer as a.residual3 (inference reuses one set of buffers for
// every block). attend fills a.atty (and a.att when training) from a.qkv: the uncached
// forward attends within each sequence, the cached one against the KV cache. round is
// applied to every op's output: nothing in fp32, rounding to bfloat16 in BF16.
func blockForward(a layerActs, x []float32, w *Block, attend func(atty, att, qkv []float32),
	round func([]float32), N, C int) {
	layernormForward(a.ln1, a.ln1Mean, a.ln1Rstd, x, w.Ln1W, w.Ln1B, N, C)
	round(a.ln1[:N*C])
	conv1D(a.qkv, a.ln1, w.CAttnW, w.cAttnW16, w.CAttnB, N, C, 3*C)
	round(a.qkv[:N*3*C])
	attend(a.atty, a.att, a.qkv)
	round(a.atty[:N*C])
	conv1D(a.attproj, a.atty, w.AttnCProjW, w.attnCProjW16, w.AttnCProjB, N, C, C)
	round(a.attproj[:N*C])
	residualForward(a.residual2, x, a.attproj, N*C)
	round(a.residual2[:N*C])

	layernormForward(a.ln2, a.ln2Mean, a.ln2Rstd, a.residual2, w.Ln2W, w.Ln2B, N, C)
	round(a.ln2[:N*C])
	conv1D(a.fch, a.ln2, w.CFcW, w.cFcW16, w.CFcB, N, C, 4*C)
	round(a.fch[:N*4*C])
	geluForward(a.fchGelu, a.fch, N*4*C)
	round(a.fchGelu[:N*4*C])
	conv1D(a.fcproj, a.fchGelu, w.MlpCProjW, w.mlpCProjW16, w.MlpCProjB, N, 4*C, C)
	round(a.fcproj[:N*C])
	residualForward(a.residual3, a.residual2, a.fcproj, N*C)
	round(a.residual3[:N*C])
}
