package gpt

import (
	"math"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// bfloat16 is the top half of a float32: 1 sign bit, the same 8 exponent bits, 7 mantissa
// bits. Converting a float32 keeps its range and rounds away 16 mantissa bits.
//
// What a BF16 model rounds, and where. "Rounded" is to the nearest bfloat16, ties to even;
// every sum of products accumulates in float32 (float64 in the readable loops here):
//
//	weights       every parameter, once (WithPrecision, LoadAs, LoadHFAs), stored in 2 bytes
//	embedding     wte[id] + wpe[t], summed in float32, rounded
//	LayerNorm     its bf16 input's mean and variance in float64, (x-μ)/σ·w + b in float32, rounded
//	products      c_attn, attn.c_proj, c_fc, mlp.c_proj: bf16 input · bf16 weight + bias, one
//	              float32 sum, rounded once
//	attention     each score q·k rounded, divided by √HS and rounded (exact for HS = 64); the
//	              softmax in float32 over those, each probability rounded; Σ p·v in float32,
//	              rounded
//	GELU          in float32 from its bf16 input, rounded
//	residual      x + attn(…) and x + mlp(…) in float32, rounded: the stream itself is bf16
//	ln_f, logits  as LayerNorm and the products: the logits are bfloat16 values
//	KV cache      the rounded keys and values, stored in bfloat16 (kvcache.go)
//
// The forward applies it as one policy (run.at in run.go): every tensor the table of
// hookpoints.go marks as an op's output is rounded as the line that computed it hands it
// over; the fused kernels round inside where attention's steps do.
//
// That is what PyTorch computes for model.to(torch.bfloat16) on a CPU, op by op:
// tests/bf16_compare.py gives each of PyTorch's ops our bf16 inputs and finds the same
// output in the median for every product, the attention and the residual adds. Two of
// Debian's torch 1.13 ops round differently: its LayerNorm accumulates the moments of a
// bfloat16 row in bfloat16 (PyTorch issue 77507, fixed in later releases), which moves its
// rstd by up to ~1%, while ours are float64; and its tanh GELU rounds its intermediate
// steps to bfloat16, while ours rounds the float32 GELU once. Over a whole forward the
// LayerNorm difference is carried into every later activation (docs/performance.md, "bf16").

// float32ToBF16 rounds f to the nearest bfloat16, ties to even (the bf16 whose last
// mantissa bit is 0). NaN stays NaN (quiet); ±Inf and values that round past the largest
// bfloat16 become ±Inf.
func float32ToBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 { // NaN: keep the sign, force a quiet mantissa bit
		return uint16(b>>16) | 0x40
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

// bf16ToFloat32 widens a bfloat16 exactly.
func bf16ToFloat32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// RoundBF16 returns f rounded to the nearest bfloat16 (ties to even), as a float32.
func RoundBF16(f float32) float32 { return bf16ToFloat32(float32ToBF16(f)) }

// roundBF16 rounds every element of x to bfloat16 in place (split over the cores; eight at
// a time in fast.RoundBF16).
func roundBF16(x []float32) {
	parallelRegion(&roundRegion, len(x), 1<<15, x)
}

// roundRegion rounds elements lo…hi-1 of x.
var roundRegion = fast.Region[[]float32]{Body: func(x *[]float32, lo, hi int) {
	if useFast {
		fast.RoundBF16((*x)[lo:hi])
		return
	}
	for i, f := range (*x)[lo:hi] {
		(*x)[lo+i] = bf16ToFloat32(float32ToBF16(f))
	}
}}

// params16 holds a BF16 model's weights: one []uint16 slab in the layout of Params, and
// no float32 copy of it. The four matrices of each block and the two tables are read in
// bfloat16 by the products (matmulForward16, logitsForward16, encoderForward16); only the
// vectors — the biases and LayerNorm parameters, 13·C a block and 2·C for ln_f, 0.08% of
// GPT-2 Small's parameters — are kept widened as well, in vecs, because the element-wise
// steps read them as float32.
type params16 struct {
	data       []uint16  // every parameter as bfloat16, in checkpoint order (Layout)
	wte, wpe   []uint16  // (V, C), (BlockSize, C)
	h          []Block   // each block: matrices in its *16 fields (views of data), vectors widened
	lnfW, lnfB []float32 // (C) ln_f, widened
	vecs       []float32 // the widened vectors, every block's then ln_f's
}

// newParams16 rounds every parameter of p to bfloat16.
func newParams16(p *Params, cfg Config) *params16 {
	data := make([]uint16, len(p.Data))
	parallel(len(p.Data), 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			data[i] = float32ToBF16(p.Data[i])
		}
	})
	return bindParams16(data, cfg)
}

// bindParams16 points the views of a params16 into data (Layout(cfg) order) and widens
// the vectors.
func bindParams16(data []uint16, cfg Config) *params16 {
	ts := Layout(cfg)
	q := &params16{data: data, h: make([]Block, cfg.Layers)}
	view := func(t Tensor) []uint16 { return data[t.Offset : t.Offset+t.Size() : t.Offset+t.Size()] }
	vec := func(t Tensor) []float32 { // widen a vector onto the end of vecs
		for _, h := range view(t) {
			q.vecs = append(q.vecs, bf16ToFloat32(h))
		}
		n := len(q.vecs)
		return q.vecs[n-t.Size() : n : n]
	}
	C := cfg.Channels
	q.vecs = make([]float32, 0, cfg.Layers*13*C+2*C) // never grows: the views stay valid
	q.wte, q.wpe = view(ts[0]), view(ts[1])
	for l := range q.h {
		per := cfg.tensorsPerBlock()
		t := ts[2+per*l : 2+per*(l+1)]
		q.h[l] = Block{
			Ln1W: vec(t[0]), Ln1B: vec(t[1]),
			cAttnW16: view(t[2]), CAttnB: vec(t[3]),
			attnCProjW16: view(t[4]), AttnCProjB: vec(t[5]),
		}
		if !cfg.AttnOnly {
			b := &q.h[l]
			b.Ln2W, b.Ln2B = vec(t[6]), vec(t[7])
			b.cFcW16, b.CFcB = view(t[8]), vec(t[9])
			b.mlpCProjW16, b.MlpCProjB = view(t[10]), vec(t[11])
		}
	}
	n := len(ts)
	q.lnfW, q.lnfB = vec(ts[n-2]), vec(ts[n-1])
	return q
}

// WithPrecision returns a model of the same weights computing in p, with its own buffers.
// BF16 rounds every weight to bfloat16 and stores only those (2 bytes per parameter; its
// Params is nil); FP32 from a BF16 model widens them back into a new Params.
func (m *Model) WithPrecision(p Precision) *Model {
	switch {
	case p == m.Precision:
		return m.Share()
	case p == BF16:
		return &Model{Config: m.Config, Precision: BF16, w16: newParams16(m.Params, m.Config)}
	default:
		params, err := NewParams(m.Config)
		if err != nil {
			panic(err) // the config was valid when this model was made
		}
		for i, h := range m.w16.data {
			params.Data[i] = bf16ToFloat32(h)
		}
		return &Model{Config: m.Config, Params: params, Precision: FP32}
	}
}

// WeightBytes is the memory the model's weights take: 4 bytes per parameter in FP32,
// 2 in BF16 (whose widened vectors add 4·(13·L+2)·C bytes, 0.5 MB for GPT-2 Small).
func (m *Model) WeightBytes() int {
	if m.Precision == BF16 {
		return 2 * len(m.w16.data)
	}
	return 4 * len(m.Params.Data)
}

// block returns the weights of block l: views into Params, or in BF16 the bfloat16
// matrices and widened vectors (the fp32 matrix fields nil).
func (m *Model) block(l int) *Block {
	if m.Precision == BF16 {
		return &m.w16.h[l]
	}
	return &m.Params.H[l]
}

// finalNorm returns ln_f's weight and bias (C) in fp32.
func (m *Model) finalNorm() (w, b []float32) {
	if m.Precision == BF16 {
		return m.w16.lnfW, m.w16.lnfB
	}
	return m.Params.LnFW, m.Params.LnFB
}

// logits applies the tied output layer to x (N, C), writing out (N, V).
func (m *Model) logits(out, x []float32, N int) {
	C, V := m.Config.Channels, m.Config.VocabSize
	if m.Precision == BF16 {
		logitsForward16(out, x, m.w16.wte, N, C, V)
		return
	}
	logitsForward(out, x, m.Params.Wte, N, C, V)
}

// matmulForward16 is matmulForward with w (C, OC) in bfloat16: each weight widened
// exactly, the products summed in float64 here and in float32 by the fast kernels.
func matmulForward16(out, inp []float32, w []uint16, bias []float32, N, C, OC int) {
	if useFast {
		fast.MatmulForward16(out, inp, w, bias, N, C, OC)
		return
	}
	for n := 0; n < N; n++ {
		for o := 0; o < OC; o++ {
			var s float64
			if bias != nil {
				s = float64(bias[o])
			}
			for i := 0; i < C; i++ {
				s += float64(inp[n*C+i]) * float64(bf16ToFloat32(w[i*OC+o]))
			}
			out[n*OC+o] = float32(s)
		}
	}
}

// logitsForward16 is logitsForward with wte (V, C) in bfloat16.
func logitsForward16(out, inp []float32, wte []uint16, N, C, V int) {
	if useFast {
		fast.Logits16(out, V, inp, wte, N, C, V)
		return
	}
	for n := 0; n < N; n++ {
		for v := 0; v < V; v++ {
			var s float64
			for i := 0; i < C; i++ {
				s += float64(inp[n*C+i]) * float64(bf16ToFloat32(wte[v*C+i]))
			}
			out[n*V+v] = float32(s)
		}
	}
}
