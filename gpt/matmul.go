package gpt

import (
	"fmt"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

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

// MatMul and MatMulT are the model's compiled products for a notebook's own forward: a cell
// runs interpreted, some hundred times slower than compiled Go, and a product is most of a
// forward's arithmetic (T·C·3C multiply-adds for c_attn alone), so a cell that writes its own
// GPT-2 calls these for the products and keeps its own loops for the rest. Both take the rows
// of x, (N, K), and a flat row-major w, and return N new rows.

// MatMul returns x·w for w (K, M) row-major, the checkpoint's Conv1D layout [in, out]:
// (N, M), no bias. It panics when w does not hold K·M numbers.
//
//	qkv := gpt.MatMul(x, b.CAttnW, 3*C) // x (T, C) · c_attn (C, 3C) → (T, 3C), q|k|v side by side
func MatMul(x [][]float32, w []float32, M int) [][]float32 {
	inp, N, K := flatRows("MatMul", x, w, M)
	out := make([]float32, N*M)
	matmulForward(out, inp, w[:K*M], nil, N, K, M)
	return splitRows(out, N, M)
}

// MatMulT returns x·wᵀ for w (M, K) row-major, a table of M rows of K such as the token
// table wte (V, C): (N, M), row n column m the dot product of x[n] and w's row m. It panics
// when w does not hold M·K numbers.
//
//	logits := gpt.MatMulT(x, p.Wte, V) // x (T, C) · wteᵀ (C, V) → (T, V)
func MatMulT(x [][]float32, w []float32, M int) [][]float32 {
	inp, N, K := flatRows("MatMulT", x, w, M)
	out := make([]float32, N*M)
	logitsForward(out, inp, w[:K*M], N, K, M)
	return splitRows(out, N, M)
}

// flatRows copies x's rows into one slab (N, K) and checks that w holds K·M numbers.
func flatRows(op string, x [][]float32, w []float32, M int) (inp []float32, N, K int) {
	N = len(x)
	if N == 0 {
		panic(fmt.Sprintf("gpt: %s: x has no rows", op))
	}
	K = len(x[0])
	inp = make([]float32, 0, N*K)
	for n, row := range x {
		if len(row) != K {
			panic(fmt.Sprintf("gpt: %s: x's row %d has %d numbers, row 0 has %d", op, n, len(row), K))
		}
		inp = append(inp, row...)
	}
	if M <= 0 || len(w) != K*M {
		panic(fmt.Sprintf("gpt: %s: w has %d numbers; x's rows of %d times %d columns need %d", op, len(w), K, M, K*M))
	}
	return inp, N, K
}

// splitRows cuts a slab (N, M) into N rows of M.
func splitRows(out []float32, N, M int) [][]float32 {
	rows := make([][]float32, N)
	for n := range rows {
		rows[n] = out[n*M : (n+1)*M : (n+1)*M]
	}
	return rows
}
