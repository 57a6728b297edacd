package gpt

import "github.com/gptnotes/gptnotes/gpt/internal/fast"

// The matrix products of the model: every Conv1D of a block (c_attn, attn.c_proj, c_fc,
// mlp.c_proj) and the tied output layer. The readable form is llm.c's loops; the fast one
// (fast.go) is a blocked sgemm, gemv for one row, split over the cores.

// matmulForward computes out = inp·w + bias, the Conv1D of GPT-2 (llm.c's matmul_forward):
//
//	out  (N, OC)
//	inp  (N, C)
//	w    (C, OC)   checkpoint layout [in, out], row-major
//	bias (OC)      or nil
func matmulForward(out, inp, w, bias []float32, N, C, OC int) {
	if useFast {
		fast.MatmulForward(out, inp, w, bias, N, C, OC)
		return
	}
	for n := 0; n < N; n++ {
		for o := 0; o < OC; o++ {
			var s float64
			if bias != nil {
				s = float64(bias[o])
			}
			for i := 0; i < C; i++ {
				s += float64(inp[n*C+i]) * float64(w[i*OC+o])
			}
			out[n*OC+o] = float32(s)
		}
	}
}

// conv1D is matmulForward on a weight as the model stores it: w in FP32, or w16 in
// bfloat16 when w is nil (a BF16 model, bf16.go).
func conv1D(out, inp, w []float32, w16 []uint16, bias []float32, N, C, OC int) {
	if w == nil {
		matmulForward16(out, inp, w16, bias, N, C, OC)
		return
	}
	matmulForward(out, inp, w, bias, N, C, OC)
}

// logitsForward applies the tied output layer: out = inp·wteᵀ (GPT-2's lm_head has no bias).
//
//	out (N, V)
//	inp (N, C)   after ln_f
//	wte (V, C)
func logitsForward(out, inp, wte []float32, N, C, V int) {
	if useFast {
		fast.Logits(out, V, inp, wte, N, C, V)
		return
	}
	for n := 0; n < N; n++ {
		for v := 0; v < V; v++ {
			var s float64
			for i := 0; i < C; i++ {
				s += float64(inp[n*C+i]) * float64(wte[v*C+i])
			}
			out[n*V+v] = float32(s)
		}
	}
}

// matmulBackward is the gradient of matmulForward, out = inp·w + bias (llm.c's
// matmul_backward):
//
//	dinp  (N, C)  += dout · wᵀ      dout (N, OC)
//	dw    (C, OC) += inpᵀ · dout    inp  (N, C)    w (C, OC)
//	dbias (OC)    += Σ_n dout[n]    (dbias nil: no bias)
func matmulBackward(dinp, dw, dbias, dout, inp, w []float32, N, C, OC int) {
	if useFast {
		fast.MatmulBackward(dinp, dw, dbias, dout, inp, w, N, C, OC)
		return
	}
	for n := 0; n < N; n++ {
		for o := 0; o < OC; o++ {
			d := dout[n*OC+o]
			for i := 0; i < C; i++ {
				dinp[n*C+i] += w[i*OC+o] * d
				dw[i*OC+o] += inp[n*C+i] * d
			}
			if dbias != nil {
				dbias[o] += d
			}
		}
	}
}

// logitsBackward is the gradient of logitsForward, out = inp·wteᵀ:
//
//	dinp (N, C) += dout · wte       dout (N, V)
//	dwte (V, C) += doutᵀ · inp      inp (N, C)   wte (V, C)
func logitsBackward(dinp, dwte, dout, inp, wte []float32, N, C, V int) {
	if useFast {
		fast.LogitsBackward(dinp, dwte, dout, inp, wte, N, C, V)
		return
	}
	for n := 0; n < N; n++ {
		for v := 0; v < V; v++ {
			d := dout[n*V+v]
			for i := 0; i < C; i++ {
				dinp[n*C+i] += wte[v*C+i] * d
				dwte[v*C+i] += inp[n*C+i] * d
			}
		}
	}
}
