package gpt

// embed is the residual stream's start for the ids (B·T tokens, row after row): each
// token's row of wte plus its position's, (B, T, C) in r.a.encoded. Block 0 takes it as its
// hook_resid_pre.
func (r *run) embed(ids []int) []float32 {
	N, C := r.B*r.T, r.cfg.Channels
	x := r.a.encoded[:N*C]
	if r.fused() {
		r.m.embed(x, ids, r.pos0, r.B, r.T)
		return x
	}
	tok, pos := make([]float32, N*C), make([]float32, N*C) // (B, T, C) each
	r.m.embedRows(tok, pos, ids, r.pos0, r.B, r.T)
	r.at(-1, "hook_embed", tok)
	r.at(-1, "hook_pos_embed", pos)
	residualForward(x, tok, pos, N*C)
	return x
}

// encoderForward adds each token's row of the token table to its position's row of the
// position table (llm.c's encoder_forward; nanoGPT's tok_emb + pos_emb):
//
//	out (B, T, C)
//	ids (B, T)      token ids, already checked to be < V
//	wte (V, C)
//	wpe (T', C)     rows from the first position on (a cached step passes wpe[pos*C:])
func encoderForward(out []float32, ids []int, wte, wpe []float32, B, T, C int) {
	for b := 0; b < B; b++ {
		for t := 0; t < T; t++ {
			o := out[(b*T+t)*C : (b*T+t+1)*C]
			tok := wte[ids[b*T+t]*C:]
			pos := wpe[t*C:]
			for i := range o {
				o[i] = tok[i] + pos[i]
			}
		}
	}
}

// embed is encoderForward on the model's tables in its precision, for positions
// pos0…pos0+T-1 of each row.
func (m *Model) embed(out []float32, ids []int, pos0, B, T int) {
	C := m.Config.Channels
	if m.Precision == BF16 {
		encoderForward16(out, ids, m.w16.wte, m.w16.wpe[pos0*C:], B, T, C)
		return
	}
	encoderForward(out, ids, m.Params.Wte, m.Params.Wpe[pos0*C:], B, T, C)
}

// encoderForward16 is encoderForward reading bfloat16 tables.
func encoderForward16(out []float32, ids []int, wte, wpe []uint16, B, T, C int) {
	for b := 0; b < B; b++ {
		for t := 0; t < T; t++ {
			o := out[(b*T+t)*C : (b*T+t+1)*C]
			tok := wte[ids[b*T+t]*C:]
			pos := wpe[t*C:]
			for i := range o {
				o[i] = bf16ToFloat32(tok[i]) + bf16ToFloat32(pos[i])
			}
		}
	}
}

// encoderBackward is the gradient of encoderForward (llm.c's encoder_backward): each
// position's gradient flows to its token's row of wte and its position's row of wpe.
//
//	dwte (V, C)   dwpe (T, C)   dout (B, T, C)   ids (B, T)
func encoderBackward(dwte, dwpe, dout []float32, ids []int, B, T, C int) {
	for b := 0; b < B; b++ {
		for t := 0; t < T; t++ {
			d := dout[(b*T+t)*C : (b*T+t+1)*C]
			tok := dwte[ids[b*T+t]*C : ids[b*T+t]*C+C]
			pos := dwpe[t*C : t*C+C]
			for i, g := range d {
				tok[i] += g
				pos[i] += g
			}
		}
	}
}

// embedRows writes each token's row of wte into tok and each position's row of wpe into
// pos, both (B, T, C), for positions pos0 … pos0+T-1, from the model's tables in its
// precision.
func (m *Model) embedRows(tok, pos []float32, ids []int, pos0, B, T int) {
	C := m.Config.Channels
	row := func(dst []float32, table []float32, table16 []uint16, i int) {
		if m.Precision == BF16 {
			for c, h := range table16[i*C : (i+1)*C] {
				dst[c] = bf16ToFloat32(h)
			}
			return
		}
		copy(dst, table[i*C:(i+1)*C])
	}
	var wte, wpe []float32
	var wte16, wpe16 []uint16
	if m.Precision == BF16 {
		wte16, wpe16 = m.w16.wte, m.w16.wpe
	} else {
		wte, wpe = m.Params.Wte, m.Params.Wpe
	}
	for n, id := range ids {
		row(tok[n*C:(n+1)*C], wte, wte16, id)
		row(pos[n*C:(n+1)*C], wpe, wpe16, pos0+n%T)
	}
}
