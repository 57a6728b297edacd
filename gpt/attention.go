package gpt

import (
	"math"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// Causal self-attention. c_attn has already produced q|k|v side by side for every
// position; each head h reads its HS channels of q, k and v. For a query at position t,
// head h:
//
//	scores_j = q_t·k_j / √HS   for j ≤ t (the causal mask: no key from the future)
//	p        = softmax(scores)
//	out_t    = Σ_j p_j·v_j
//
// attend below writes it as those steps, each tensor handed to r.at by its hook name; the
// fast kernel (attendFused) is fused and causal and runs its products on the sgemm's
// micro-kernel.

// attention is the attention sublayer of block l on ln_1's output a.ln1, up to its write
// to the stream, a.attproj: c_attn, the causal self-attention of each head, c_proj.
func (r *run) attention(l int, w *Block, a layerActs) {
	N, C, NH := r.B*r.T, r.cfg.Channels, r.cfg.Heads
	if r.fused() {
		conv1D(a.qkv, a.ln1, w.CAttnW, w.cAttnW16, w.CAttnB, N, C, 3*C)
		r.at(l, "attn.qkv", a.qkv)
		r.attendFused(l, a.atty, a.att, a.qkv)
	} else {
		r.qkv(l, w, a.ln1, a.qkv)
		r.attend(l, a.atty, a.att)
	}
	r.at(l, "attn.hook_z", a.atty)

	// attn.c_proj: one product, z·W + bias; or, with hook_result asked for, each head's z
	// through its HS rows of the weight, then the sum over heads plus the bias.
	if r.wants == nil || !r.wants(l, "attn.hook_result") {
		conv1D(a.attproj, a.atty, w.AttnCProjW, w.attnCProjW16, w.AttnCProjB, N, C, C)
	} else {
		b := r.bufs()
		if b.result == nil {
			b.result = make([]float32, N*NH*C) // (B, T, NH, C)
		}
		HS := C / NH
		for h := 0; h < NH; h++ {
			headRows(b.hzAll, a.atty, h, N, HS, C)
			wh, wh16 := w.headRowsOfCProj(h, HS, C)
			conv1D(b.hres, b.hzAll, wh, wh16, nil, N, HS, C)
			for n := 0; n < N; n++ {
				copy(b.result[(n*NH+h)*C:(n*NH+h+1)*C], b.hres[n*C:(n+1)*C])
			}
		}
		r.at(l, "attn.hook_result", b.result)
		for n := 0; n < N; n++ {
			for c := 0; c < C; c++ {
				acc := float64(w.AttnCProjB[c])
				for h := 0; h < NH; h++ {
					acc += float64(b.result[(n*NH+h)*C+c])
				}
				a.attproj[n*C+c] = float32(acc)
			}
		}
	}
	r.at(l, "hook_attn_out", a.attproj)
}

// qkv is attn.c_attn on ln_1's output ln (B, T, C) as three products, each a hook point:
// q, k and v, each ln times its C columns of the weight, plus its C entries of the bias,
// (B, T, NH, HS) with the heads side by side. It leaves them side by side in qkv (B, T, 3C),
// where the backward pass reads them.
func (r *run) qkv(l int, w *Block, ln, qkv []float32) {
	N, C := r.B*r.T, r.cfg.Channels
	b := r.bufs()
	for part, out := range [][]float32{b.q, b.k, b.v} {
		wp, wp16 := w.cAttnColumns(part, C)
		conv1D(out, ln, wp, wp16, w.CAttnB[part*C:(part+1)*C], N, C, C)
		r.at(l, qkvSites[part], out)
		for n := 0; n < N; n++ {
			copy(qkv[n*3*C+part*C:n*3*C+(part+1)*C], out[n*C:(n+1)*C])
		}
	}
}

// qkvSites are the names of q, k and v in the table.
var qkvSites = [3]string{"attn.hook_q", "attn.hook_k", "attn.hook_v"}

// cAttnColumns returns columns part·C … part·C+C-1 of attn.c_attn's weight (C, 3C) — the
// queries' (part 0), the keys' (1) or the values' (2) — as a (C, C) copy, in fp32 or, in a
// BF16 model, bfloat16.
func (b *Block) cAttnColumns(part, C int) ([]float32, []uint16) {
	if b.CAttnW == nil {
		w16 := make([]uint16, C*C)
		for i := 0; i < C; i++ {
			copy(w16[i*C:(i+1)*C], b.cAttnW16[i*3*C+part*C:i*3*C+part*C+C])
		}
		return nil, w16
	}
	w := make([]float32, C*C)
	for i := 0; i < C; i++ {
		copy(w[i*C:(i+1)*C], b.CAttnW[i*3*C+part*C:i*3*C+part*C+C])
	}
	return w, nil
}

// attend is causal self-attention written as the steps a student draws, from q, k and v
// (B, T, NH, HS each, in r.bufs()) to z (B, T, C), the heads side by side: the scores q·kᵀ/√HS; the future
// masked; the pattern (a softmax of each row); z, the pattern's weighted sum of values. att
// (B, NH, T, T), when not nil, receives the pattern for the backward pass.
//
// In a cached step the T new queries attend over K = pos0+T keys: the cached ones and their
// own, which are appended to the cache after hook_k and hook_v (so a hook that changes them
// changes what every later step reads).
func (r *run) attend(l int, z, att []float32) {
	B, T, C, NH := r.B, r.T, r.cfg.Channels, r.cfg.Heads
	HS, K := C/NH, r.keys()
	b := r.bufs()
	keys := r.keysOf(l, b)

	// scores = q·k/√HS for every sequence, head, query and key, the future included (it is
	// masked next). PyTorch's bfloat16 rounds q·k before the division too.
	scale := 1 / math.Sqrt(float64(HS))
	for bi := 0; bi < B; bi++ {
		k, _ := keys(bi)
		for h := 0; h < NH; h++ {
			for t := 0; t < T; t++ {
				qt := b.q[(bi*T+t)*C+h*HS:][:HS]
				row := b.scores[((bi*NH+h)*T+t)*K:][:K]
				for j := range row {
					kj := k[j*C+h*HS:][:HS]
					var dot float64
					for d, q := range qt {
						dot += float64(q) * float64(kj[d])
					}
					if r.bf16 {
						dot = float64(RoundBF16(float32(dot)))
					}
					row[j] = float32(dot * scale)
				}
			}
		}
	}
	r.at(l, "attn.scores", b.scores)

	// The causal mask: the query at position pos0+t sees the keys 0 … pos0+t; the score of
	// every later key becomes −Inf, so the softmax gives it weight 0.
	for i, s := range b.scores {
		if t, j := i/K%T, i%K; j > r.pos0+t {
			s = float32(math.Inf(-1))
		}
		b.masked[i] = s
	}
	r.at(l, "attn.hook_attn_scores", b.masked)

	// pattern = the softmax of each row: subtract the largest score so that no exponential
	// overflows, exponentiate (e^−Inf is 0: the mask), normalise.
	pattern := b.pattern
	if att != nil {
		pattern = att
	}
	p := make([]float64, K)
	for row := 0; row < B*NH*T; row++ {
		s := b.masked[row*K : (row+1)*K]
		mx := math.Inf(-1)
		for _, x := range s {
			mx = math.Max(mx, float64(x))
		}
		var sum float64
		for j, x := range s {
			p[j] = math.Exp(float64(x) - mx)
			sum += p[j]
		}
		for j := range s {
			pattern[row*K+j] = float32(p[j] / sum)
		}
	}
	r.at(l, "attn.hook_pattern", pattern)

	// z = each head's sum of values weighted by its pattern.
	for bi := 0; bi < B; bi++ {
		_, v := keys(bi)
		for h := 0; h < NH; h++ {
			for t := 0; t < T; t++ {
				w := pattern[((bi*NH+h)*T+t)*K:][:K]
				for d := 0; d < HS; d++ {
					var acc float64
					for j, pj := range w {
						acc += float64(pj) * float64(v[j*C+h*HS+d])
					}
					z[(bi*T+t)*C+h*HS+d] = float32(acc)
				}
			}
		}
	}
}

// keysOf returns the keys and values (K, C) the queries of each sequence attend over: its
// own, or in a cached step the cache's, after appending this step's to it.
func (r *run) keysOf(l int, b *stepBufs) func(bi int) (k, v []float32) {
	T, C, K := r.T, r.cfg.Channels, r.keys()
	if r.kv == nil {
		return func(bi int) (k, v []float32) { return b.k[bi*T*C : (bi+1)*T*C], b.v[bi*T*C : (bi+1)*T*C] }
	}
	if r.kv.Precision == BF16 {
		kc, vc := r.kv.full16(l)
		if len(b.kw) < K*C {
			b.kw, b.vw = make([]float32, K*C), make([]float32, K*C)
		}
		for i := range T * C { // exact: the policy rounded c_attn's output
			kc[r.pos0*C+i], vc[r.pos0*C+i] = float32ToBF16(b.k[i]), float32ToBF16(b.v[i])
		}
		for i := range K * C {
			b.kw[i], b.vw[i] = bf16ToFloat32(kc[i]), bf16ToFloat32(vc[i])
		}
		return func(int) (k, v []float32) { return b.kw[:K*C], b.vw[:K*C] }
	}
	kc, vc := r.kv.full(l)
	copy(kc[r.pos0*C:K*C], b.k)
	copy(vc[r.pos0*C:K*C], b.v)
	return func(int) (k, v []float32) { return kc[:K*C], vc[:K*C] }
}

// attendFused is attend as one fused kernel of gpt/internal/fast (fast.go): it takes the
// queries a block at a time, never holds the T×T matrix of scores, skips the work above the
// diagonal, and, in a BF16 model, rounds where attend's policy does.
func (r *run) attendFused(l int, z, att, qkv []float32) {
	B, T, C, NH := r.B, r.T, r.cfg.Channels, r.cfg.Heads
	if r.kv == nil {
		fast.Attention(z, att, qkv, B, T, C, NH, r.bf16)
		return
	}
	// Append this step's keys and values, then attend over everything cached.
	n, pos0 := T, r.pos0
	if r.kv.Precision == BF16 {
		kc, vc := r.kv.full16(l)
		for t := 0; t < n; t++ {
			for i := 0; i < C; i++ { // exact: qkv holds bfloat16 values
				kc[(pos0+t)*C+i] = float32ToBF16(qkv[t*3*C+C+i])
				vc[(pos0+t)*C+i] = float32ToBF16(qkv[t*3*C+2*C+i])
			}
		}
		fast.AttentionCached16(z, qkv, kc, vc, n, pos0, C, NH)
		return
	}
	kc, vc := r.kv.full(l)
	for t := 0; t < n; t++ {
		copy(kc[(pos0+t)*C:(pos0+t+1)*C], qkv[t*3*C+C:t*3*C+2*C])
		copy(vc[(pos0+t)*C:(pos0+t+1)*C], qkv[t*3*C+2*C:t*3*C+3*C])
	}
	fast.AttentionCached(z, qkv, kc, vc, n, pos0, C, NH, r.bf16)
}

// attentionForward is the causal self-attention of B sequences of T positions as one
// kernel, for the trace, the growth study and the tests:
//
//	out (B, T, C)        heads side by side, before attn.c_proj
//	att (B, NH, T, T)    the attention probabilities; nil when not needed
//	qkv (B, T, 3*C)      q|k|v from attn.c_attn
//
// bf16 rounds inside, where PyTorch's attention on bfloat16 tensors does: each score q·k,
// then the score divided by √HS, then each probability. The readable side is attend.
func attentionForward(out, att, qkv []float32, B, T, C, NH int, bf16 bool) {
	if useFast {
		fast.Attention(out, att, qkv, B, T, C, NH, bf16)
		return
	}
	r := &run{cfg: Config{Heads: NH, Channels: C}, B: B, T: T, bf16: bf16}
	b := r.bufs()
	for n := 0; n < B*T; n++ {
		copy(b.q[n*C:(n+1)*C], qkv[n*3*C:n*3*C+C])
		copy(b.k[n*C:(n+1)*C], qkv[n*3*C+C:n*3*C+2*C])
		copy(b.v[n*C:(n+1)*C], qkv[n*3*C+2*C:n*3*C+3*C])
	}
	r.attend(-1, out, att)
}

// headRows copies head h's HS channels of n rows of x (n, C) into dst (n, HS).
func headRows(dst, x []float32, h, n, HS, C int) {
	for t := 0; t < n; t++ {
		copy(dst[t*HS:(t+1)*HS], x[t*C+h*HS:t*C+(h+1)*HS])
	}
}

// attentionBackward is the gradient of attentionForward (llm.c's attention_backward). For
// one head with probabilities P (saved in att), scores S = Q·Kᵀ/√HS and output Y = P·V:
//
//	dP = dY·Vᵀ           dV += Pᵀ·dY
//	dS = P ⊙ (dP - rowsum(P ⊙ dP))      (the softmax backward; zero past the mask)
//	dQ += dS·K/√HS       dK += dSᵀ·Q/√HS
//
//	dqkv (B, T, 3*C)   dout (B, T, C)   qkv (B, T, 3*C)   att (B, NH, T, T)
func attentionBackward(dqkv, dout, qkv, att []float32, B, T, C, NH int) {
	if useFast {
		fast.AttentionBackward(dqkv, dout, qkv, att, B, T, C, NH)
		return
	}
	HS := C / NH
	scale := float32(1 / math.Sqrt(float64(HS)))
	dp := make([]float32, T)
	for b := 0; b < B; b++ {
		for h := 0; h < NH; h++ {
			for t := 0; t < T; t++ {
				p := att[((b*NH+h)*T+t)*T:]
				dy := dout[(b*T+t)*C+h*HS : (b*T+t)*C+h*HS+HS]
				q := qkv[(b*T+t)*3*C+h*HS:]
				dq := dqkv[(b*T+t)*3*C+h*HS:]
				// dP_j = dY·v_j, and dV_j += P_j·dY
				var dot float32 // Σ_j P_j·dP_j
				for j := 0; j <= t; j++ {
					v := qkv[(b*T+j)*3*C+2*C+h*HS:]
					dv := dqkv[(b*T+j)*3*C+2*C+h*HS:]
					var d float32
					for i, g := range dy {
						d += g * v[i]
						dv[i] += p[j] * g
					}
					dp[j] = d
					dot += p[j] * d
				}
				// dS_j = P_j·(dP_j - dot); dQ += dS_j·k_j·scale, dK_j += dS_j·q·scale
				for j := 0; j <= t; j++ {
					ds := p[j] * (dp[j] - dot) * scale
					k := qkv[(b*T+j)*3*C+C+h*HS:]
					dk := dqkv[(b*T+j)*3*C+C+h*HS:]
					for i := 0; i < HS; i++ {
						dq[i] += ds * k[i]
						dk[i] += ds * q[i]
					}
				}
			}
		}
	}
}
