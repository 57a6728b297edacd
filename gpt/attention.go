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
// The loops below are llm.c's, in float64. The fast kernel (fast.go) is fused and causal:
// it takes the queries a block at a time, never holds the T×T matrix of scores, skips the
// work above the diagonal, and runs its products on the sgemm's micro-kernel.

// attentionForward is the causal self-attention of B sequences of T positions:
//
//	out (B, T, C)        heads side by side, before attn.c_proj
//	att (B, NH, T, T)    the attention probabilities, saved for the backward pass; nil
//	                     when not training (then no T×T matrix is ever allocated)
//	qkv (B, T, 3*C)      q|k|v from attn.c_attn
//
// bf16 (a BF16 model) rounds inside, where PyTorch's attention on bfloat16 tensors does:
// each score q·k to bfloat16, then the score divided by √HS, then each probability.
func attentionForward(out, att, qkv []float32, B, T, C, NH int, bf16 bool) {
	if useFast {
		fast.Attention(out, att, qkv, B, T, C, NH, bf16)
		return
	}
	for b := 0; b < B; b++ {
		x := qkv[b*T*3*C : (b+1)*T*3*C]
		var a []float32
		if att != nil {
			a = att[b*NH*T*T : (b+1)*NH*T*T]
		}
		attend(out[b*T*C:(b+1)*T*C], a, x, 3*C, x[C:], 3*C, x[2*C:], 3*C, T, 0, C, NH, bf16)
	}
}

// attentionCached is the attention of n new positions pos0…pos0+n-1 of one sequence whose
// keys and values for positions 0…pos0+n-1 are in the cache of this layer:
//
//	out    (n, C)
//	qkv    (n, 3*C)        only q is read; k and v were copied into the cache
//	kc, vc (pos0+n, C)     the layer's keys and values
//
// bf16 rounds as in attentionForward.
func attentionCached(out, qkv, kc, vc []float32, n, pos0, C, NH int, bf16 bool) {
	if useFast {
		fast.AttentionCached(out, qkv, kc, vc, n, pos0, C, NH, bf16)
		return
	}
	attend(out, nil, qkv, 3*C, kc, C, vc, C, n, pos0, C, NH, bf16)
}

// attentionCached16 is attentionCached over a BF16 model's cache, its keys and values
// (pos0+n, C) in bfloat16, with bf16's roundings.
func attentionCached16(out, qkv []float32, kc, vc []uint16, n, pos0, C, NH int) {
	if useFast {
		fast.AttentionCached16(out, qkv, kc, vc, n, pos0, C, NH)
		return
	}
	m := (pos0 + n) * C
	k, v := make([]float32, m), make([]float32, m)
	for i := range k {
		k[i], v[i] = bf16ToFloat32(kc[i]), bf16ToFloat32(vc[i])
	}
	attend(out, nil, qkv, 3*C, k, C, v, C, n, pos0, C, NH, true)
}

// attend is the attention of n queries at positions pos0…pos0+n-1 against the keys and
// values of positions 0…pos0+n-1, rows strided:
//
//	out (n, C)                     q (n, C) stride qS
//	att (NH, n, pos0+n) or nil     k, v (pos0+n, C) strides kS, vS
func attend(out, att, q []float32, qS int, k []float32, kS int, v []float32, vS int, n, pos0, C, NH int, bf16 bool) {
	HS := C / NH
	scale := 1 / math.Sqrt(float64(HS))
	m := pos0 + n // keys in all
	p := make([]float64, m)
	for h := 0; h < NH; h++ {
		for t := 0; t < n; t++ {
			qt := q[t*qS+h*HS : t*qS+h*HS+HS]
			seen := pos0 + t + 1 // keys this query sees: itself and the past
			mx := math.Inf(-1)
			for j := 0; j < seen; j++ {
				kj := k[j*kS+h*HS : j*kS+h*HS+HS]
				var dot float64
				for i := range qt {
					dot += float64(qt[i]) * float64(kj[i])
				}
				p[j] = dot * scale
				if bf16 { // (q·k rounded) / √HS, rounded
					p[j] = float64(RoundBF16(float32(float64(RoundBF16(float32(dot))) * scale)))
				}
				mx = math.Max(mx, p[j])
			}
			var sum float64
			for j := 0; j < seen; j++ {
				p[j] = math.Exp(p[j] - mx)
				sum += p[j]
			}
			for j := 0; j < seen; j++ {
				p[j] /= sum
				if bf16 {
					p[j] = float64(RoundBF16(float32(p[j])))
				}
			}
			o := out[t*C+h*HS : t*C+h*HS+HS]
			for i := range o {
				var acc float64
				for j := 0; j < seen; j++ {
					acc += p[j] * float64(v[j*vS+h*HS+i])
				}
				o[i] = float32(acc)
			}
			if att != nil {
				row := att[(h*n+t)*m : (h*n+t+1)*m]
				for j := range row {
					row[j] = 0
					if j < seen {
						row[j] = float32(p[j])
					}
				}
			}
		}
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
