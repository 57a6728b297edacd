package check

import (
	"math"

	"github.com/gptnotes/gptnotes/gpt"
)

// The checks of a whole forward (Embed, AttentionLayer, MLP, Block, Forward) recognise a
// mistake by running it: this file is a GPT-2 forward written as a notebook writes it, over
// rows [][]float32 with gpt.MatMul and gpt.MatMulT for the products, and a forwardWay says
// which mistakes it makes. Its zero value is GPT-2's own forward (a test holds it to the
// model's activations), so a mistake's output differs from the model's by that mistake
// alone, and a student's forward with the same mistake gives the same numbers.

// forwardWay is one way, right or wrong, to write the forward; the zero value is right.
type forwardWay struct {
	// the embedding
	noPos         bool // the position rows not added
	posFrom1      bool // position t reads wpe's row t+1
	wteTransposed bool // token id's row read as a column of a (C, V) table

	// the attention layer
	cAttnTransposed bool // c_attn's (C, 3C) weight read as (3C, C), with MatMulT
	noMask          bool // the causal mask left out
	headsReversed   bool // the heads concatenated last first
	noAttnProjBias  bool // attn.c_proj's bias left out

	// the MLP
	cFcTransposed bool // c_fc's (C, 4C) weight read as (4C, C), with MatMulT
	noGELU        bool // no GELU between c_fc and c_proj
	geluBeforeFcB bool // GELU applied before c_fc's bias is added
	noMLPProjBias bool // mlp.c_proj's bias left out

	// the block
	postLN        bool // x = ln_1(x + attn(x)); x = ln_2(x + mlp(x)): the original Transformer's order
	noAttnResid   bool // the stream after the attention is its output alone
	noMLPResid    bool // the block's output is the MLP's output alone
	parallel      bool // the MLP reads ln_2 of the stream entering the block, not of the stream after the attention
	ln1ForBoth    bool // ln_1's weight and bias used for ln_2 as well
	blocksDropped bool // every block's output thrown away: ln_f reads the embedding

	// the end
	noLnF             bool // ln_f left out
	unembedTransposed bool // wte (V, C) read as (C, V), with MatMul
}

// refEmbed is the stream entering block 0: (T, C).
func (w forwardWay) refEmbed(m *gpt.Model, ids []int) [][]float32 {
	C, V := m.Config.Channels, m.Config.VocabSize
	x := make(grid, len(ids))
	for t, id := range ids {
		x[t] = make([]float32, C)
		pos := t
		if w.posFrom1 {
			pos = t + 1
		}
		for c := range x[t] {
			tokv := m.Params.Wte[id*C+c]
			if w.wteTransposed {
				tokv = m.Params.Wte[c*V+id]
			}
			if w.noPos {
				x[t][c] = tokv
			} else {
				x[t][c] = tokv + m.Params.Wpe[pos*C+c]
			}
		}
	}
	return x
}

// refNorm is LayerNorm of every row, as notebook 2 writes it.
func refNorm(x grid, weight, bias []float32) grid {
	out := make(grid, len(x))
	for t, row := range x {
		var mean, variance float64
		for _, v := range row {
			mean += float64(v)
		}
		mean /= float64(len(row))
		for _, v := range row {
			variance += (float64(v) - mean) * (float64(v) - mean)
		}
		variance /= float64(len(row))
		rstd := 1 / math.Sqrt(variance+1e-5)
		out[t] = make([]float32, len(row))
		for i, v := range row {
			out[t][i] = float32((float64(v)-mean)*rstd)*weight[i] + bias[i]
		}
	}
	return out
}

// refGELU is GELU in the tanh approximation, as notebook 2 writes it.
func refGELU(x float32) float32 {
	v := float64(x)
	return float32(0.5 * v * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(v+0.044715*v*v*v))))
}

// addBias adds bias (M) to every row of x (N, M), in place, unless skip.
func addBias(x grid, bias []float32, skip bool) grid {
	if skip {
		return x
	}
	for _, row := range x {
		for i := range row {
			row[i] += bias[i]
		}
	}
	return x
}

// refHead is one head's attention as notebook 3a writes it: q, k, v (T, HS) → z (T, HS),
// the scores q·kᵀ/√HS, masked (unless noMask), a softmax per row, the values weighted.
func refHead(q, k, v grid, noMask bool) grid {
	T, HS := len(q), len(q[0])
	z := make(grid, T)
	for i := range z {
		s := make([]float32, T)
		for j := range s {
			dot := float32(0)
			for c := 0; c < HS; c++ {
				dot += q[i][c] * k[j][c]
			}
			s[j] = dot / float32(math.Sqrt(float64(HS)))
			if j > i && !noMask {
				s[j] = float32(math.Inf(-1))
			}
		}
		mx := math.Inf(-1)
		for _, x := range s {
			mx = math.Max(mx, float64(x))
		}
		p := make([]float32, T)
		sum := 0.0
		for j, x := range s {
			e := math.Exp(float64(x) - mx)
			p[j] = float32(e)
			sum += e
		}
		z[i] = make([]float32, HS)
		for j := range p {
			wgt := float32(float64(p[j]) / sum)
			for c, x := range v[j] {
				z[i][c] += wgt * x
			}
		}
	}
	return z
}

// refAttention is block l's attention layer: x (T, C), ln_1's output → its write into the
// stream (T, C).
func (w forwardWay) refAttention(m *gpt.Model, l int, x [][]float32) [][]float32 {
	b := &m.Params.H[l]
	C, NH := m.Config.Channels, m.Config.Heads
	HS, T := C/NH, len(x)
	var qkv grid
	if w.cAttnTransposed {
		qkv = gpt.MatMulT(x, b.CAttnW, 3*C)
	} else {
		qkv = gpt.MatMul(x, b.CAttnW, 3*C)
	}
	addBias(qkv, b.CAttnB, false)
	z := make(grid, T)
	for t := range z {
		z[t] = make([]float32, C)
	}
	for h := 0; h < NH; h++ {
		q, k, v := make(grid, T), make(grid, T), make(grid, T)
		for t := range q {
			q[t] = qkv[t][h*HS : (h+1)*HS]
			k[t] = qkv[t][C+h*HS : C+(h+1)*HS]
			v[t] = qkv[t][2*C+h*HS : 2*C+(h+1)*HS]
		}
		zh := refHead(q, k, v, w.noMask)
		at := h
		if w.headsReversed {
			at = NH - 1 - h
		}
		for t := range z {
			copy(z[t][at*HS:(at+1)*HS], zh[t])
		}
	}
	return addBias(gpt.MatMul(z, b.AttnCProjW, C), b.AttnCProjB, w.noAttnProjBias)
}

// refMLP is block l's MLP: x (T, C), ln_2's output → its write into the stream (T, C).
func (w forwardWay) refMLP(m *gpt.Model, l int, x [][]float32) [][]float32 {
	b := &m.Params.H[l]
	C := m.Config.Channels
	var h grid
	if w.cFcTransposed {
		h = gpt.MatMulT(x, b.CFcW, 4*C)
	} else {
		h = gpt.MatMul(x, b.CFcW, 4*C)
	}
	for _, row := range h {
		for i := range row {
			switch {
			case w.noGELU:
				row[i] += b.CFcB[i]
			case w.geluBeforeFcB:
				row[i] = refGELU(row[i]) + b.CFcB[i]
			default:
				row[i] = refGELU(row[i] + b.CFcB[i])
			}
		}
	}
	return addBias(gpt.MatMul(h, b.MlpCProjW, C), b.MlpCProjB, w.noMLPProjBias)
}

// refAdd is x + y, row by row.
func refAdd(x, y grid) grid {
	out := make(grid, len(x))
	for t := range x {
		out[t] = make([]float32, len(x[t]))
		for i := range x[t] {
			out[t][i] = x[t][i] + y[t][i]
		}
	}
	return out
}

// refBlock is block l: the stream entering it (T, C) → the stream leaving it (T, C).
func (w forwardWay) refBlock(m *gpt.Model, l int, x [][]float32) [][]float32 {
	b := &m.Params.H[l]
	ln2W, ln2B := b.Ln2W, b.Ln2B
	if w.ln1ForBoth {
		ln2W, ln2B = b.Ln1W, b.Ln1B
	}
	if w.postLN {
		mid := refNorm(refAdd(x, w.refAttention(m, l, x)), b.Ln1W, b.Ln1B)
		return refNorm(refAdd(mid, w.refMLP(m, l, mid)), ln2W, ln2B)
	}
	attn := w.refAttention(m, l, refNorm(x, b.Ln1W, b.Ln1B))
	mid := refAdd(x, attn)
	if w.noAttnResid {
		mid = attn
	}
	mlpIn := mid
	if w.parallel {
		mlpIn = x
	}
	out := w.refMLP(m, l, refNorm(mlpIn, ln2W, ln2B))
	if w.noMLPResid {
		return out
	}
	return refAdd(mid, out)
}

// refForward is the whole forward: ids (T) → logits (T, V).
func (w forwardWay) refForward(m *gpt.Model, ids []int) [][]float32 {
	x := w.refEmbed(m, ids)
	if !w.blocksDropped {
		for l := range m.Params.H {
			x = w.refBlock(m, l, x)
		}
	}
	if !w.noLnF {
		x = refNorm(x, m.Params.LnFW, m.Params.LnFB)
	}
	if w.unembedTransposed {
		return gpt.MatMul(x, m.Params.Wte, m.Config.VocabSize)
	}
	return gpt.MatMulT(x, m.Params.Wte, m.Config.VocabSize)
}

// A wrongWay is a mistake of the forward: what it says, and the way that makes it.
type wrongWay struct {
	says string
	way  forwardWay
}

// The mistakes of each part, in the order a verdict tries them.
var (
	embedWrongWays = []wrongWay{
		{"positions not added: the stream starts as the token rows alone, so the model cannot tell where a token is.", forwardWay{noPos: true}},
		{"positions counted from 1: position t reads wpe's row t+1.", forwardWay{posFrom1: true}},
		{"the token table read transposed: wte is (V, C), a row of C per token, so token id's row starts at id·C.", forwardWay{wteTransposed: true}},
	}
	attentionWrongWays = []wrongWay{
		{"HF's Conv1D weight used transposed: c_attn's weight is stored [in, out], (C, 3C), so x·w is gpt.MatMul, not gpt.MatMulT.", forwardWay{cAttnTransposed: true}},
		{"the causal mask missing: every position attends to the ones after it as well.", forwardWay{noMask: true}},
		{"heads concatenated out of order: head h's z belongs in columns h·HS … (h+1)·HS−1 of the row c_proj reads.", forwardWay{headsReversed: true}},
		{"the c_proj bias dropped: attn.c_proj adds its bias after the product.", forwardWay{noAttnProjBias: true}},
	}
	mlpWrongWays = []wrongWay{
		{"HF's Conv1D weight used transposed: c_fc's weight is stored [in, out], (C, 4C), so x·w is gpt.MatMul, not gpt.MatMulT.", forwardWay{cFcTransposed: true}},
		{"no GELU: without it c_fc and c_proj are one linear map.", forwardWay{noGELU: true}},
		{"GELU before c_fc's bias: the bias belongs to c_fc, so GELU(x·w + b), not GELU(x·w) + b.", forwardWay{geluBeforeFcB: true}},
		{"the c_proj bias dropped: mlp.c_proj adds its bias after the product.", forwardWay{noMLPProjBias: true}},
	}
	blockWrongWays = []wrongWay{
		{"post-LN instead of pre-LN: GPT-2 normalises what enters the attention and the MLP, x + attn(ln_1(x)), not the stream after the add, ln_1(x + attn(x)).", forwardWay{postLN: true}},
		{"a missing residual: the stream after the attention is its output alone; it should be x + attn(ln_1(x)).", forwardWay{noAttnResid: true}},
		{"a missing residual: the block returns the MLP's output alone; it should be the stream plus it.", forwardWay{noMLPResid: true}},
		{"the MLP reads the stream entering the block, as a parallel block does; in GPT-2 it reads the stream after the attention's add.", forwardWay{parallel: true}},
		{"ln_1's weight and bias used for ln_2 as well: each LayerNorm has its own.", forwardWay{ln1ForBoth: true}},
	}
	forwardWrongWays = []wrongWay{
		{"the unembedding transposed: wte is (V, C), so the logits are x·wteᵀ, gpt.MatMulT, not gpt.MatMul.", forwardWay{unembedTransposed: true}},
		{"ln_f left out: the last LayerNorm comes after the last block, before the unembedding.", forwardWay{noLnF: true}},
		{"the blocks' outputs thrown away: each block's output is the next block's input, and the last one's goes to ln_f.", forwardWay{blocksDropped: true}},
	}
)
