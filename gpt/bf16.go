package gpt

import "math"

// bfloat16 is the top half of a float32: 1 sign bit, the same 8 exponent bits, 7 mantissa
// bits. Converting a float32 keeps its range and rounds away 16 mantissa bits.

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

// roundBF16 rounds every element of x to bfloat16 in place.
func roundBF16(x []float32) {
	for i, f := range x {
		x[i] = bf16ToFloat32(float32ToBF16(f))
	}
}

// params16 holds a BF16 model's weights: one []uint16 slab in the layout of Params.
type params16 struct {
	data     []uint16 // every parameter as bfloat16, in checkpoint order
	wte, wpe []uint16 // (V, C), (BlockSize, C)
	lnfW     []uint16 // (C)
	lnfB     []uint16 // (C)
	blockOff []int    // offset of each block's first tensor in data
	blockLen int      // parameters per block
	tensors  []Tensor // the layout, Data nil

	scratch *Params   // one block's worth of fp32, where block() widens the weights
	lnf     []float32 // (2C): ln_f widened
}

func newParams16(p *Params, cfg Config) *params16 {
	q := &params16{data: make([]uint16, len(p.Data)), tensors: Layout(cfg)}
	parallel(len(p.Data), 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			q.data[i] = float32ToBF16(p.Data[i])
		}
	})
	q.bind(cfg)
	return q
}

// share returns the same bf16 weights with scratch buffers of its own.
func (q *params16) share(cfg Config) *params16 {
	s := *q
	s.newScratch(cfg)
	return &s
}

// newScratch allocates the fp32 buffers block() and finalNorm() widen weights into.
func (q *params16) newScratch(cfg Config) {
	// The scratch is a one-block Params whose views fall at the same relative offsets.
	one := cfg
	one.Layers = 1
	q.scratch, _ = NewParams(one)
	q.lnf = make([]float32, 2*cfg.Channels)
}

func (q *params16) bind(cfg Config) {
	ts := q.tensors
	view := func(t Tensor) []uint16 { return q.data[t.Offset : t.Offset+t.Size()] }
	q.wte, q.wpe = view(ts[0]), view(ts[1])
	n := len(ts)
	q.lnfW, q.lnfB = view(ts[n-2]), view(ts[n-1])
	q.blockOff = make([]int, cfg.Layers)
	for l := range q.blockOff {
		q.blockOff[l] = ts[2+tensorsPerBlock*l].Offset
	}
	first, last := ts[2], ts[2+tensorsPerBlock-1]
	q.blockLen = last.Offset + last.Size() - first.Offset
	q.newScratch(cfg)
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
// 2 in BF16.
func (m *Model) WeightBytes() int {
	if m.Precision == BF16 {
		return 2 * len(m.w16.data)
	}
	return 4 * len(m.Params.Data)
}

// block returns the fp32 weights of block l: its views into Params, or in BF16 the block
// widened into a scratch (valid until the next call).
func (m *Model) block(l int) *Block {
	if m.Precision != BF16 {
		return &m.Params.H[l]
	}
	q := m.w16
	src := q.data[q.blockOff[l] : q.blockOff[l]+q.blockLen]
	dst := q.scratch.Data[q.scratch.Tensors[2].Offset:]
	parallel(len(src), 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			dst[i] = bf16ToFloat32(src[i])
		}
	})
	return &q.scratch.H[0]
}

// finalNorm returns ln_f's weight and bias (C) in fp32.
func (m *Model) finalNorm() (w, b []float32) {
	if m.Precision != BF16 {
		return m.Params.LnFW, m.Params.LnFB
	}
	q, C := m.w16, m.Config.Channels
	for i := 0; i < C; i++ {
		q.lnf[i], q.lnf[C+i] = bf16ToFloat32(q.lnfW[i]), bf16ToFloat32(q.lnfB[i])
	}
	return q.lnf[:C], q.lnf[C:]
}

// logits applies the tied output layer to x (N, C), writing out (N, V).
func (m *Model) logits(out, x []float32, N int) {
	C, V := m.Config.Channels, m.Config.VocabSize
	if m.Precision != BF16 {
		logitsForward(out, x, m.Params.Wte, N, C, V)
		return
	}
	// BF16: widen wte a strip of rows at a time and multiply by the strip.
	const strip = 4096
	w := make([]float32, strip*C)
	for v0 := 0; v0 < V; v0 += strip {
		nv := min(strip, V-v0)
		src := m.w16.wte[v0*C : (v0+nv)*C]
		for i, h := range src {
			w[i] = bf16ToFloat32(h)
		}
		logitsStrip(out[v0:], V, x, w[:nv*C], N, C, nv)
	}
}
