package fast

import "math"

// The attention of a decode step: one new query over the m cached positions of a layer,
// every head. The cache holds a layer's keys, and its values, as rows of C numbers, (m, C),
// head h in channels h·HS … (h+1)·HS-1. A head's 64 channels of a row are 256 bytes of a
// 3 kB row in fp32 (128 of 1.5 kB in bf16), so a walk over one head's keys, as attendBlock
// takes it, reads a short piece of each row and skips the rest: a stride the prefetchers
// do not follow (the next row is 3 kB on), so that each row waits on its own fetch from
// memory, and every other head comes back to the same rows for its own piece.
//
// Here each core takes a range of heads and walks the rows once, in memory order, four at a
// time, every head of its range in each row (headDots, headRows: attention_decode_amd64.s):
//
//	s[h, j] = q_h·k_j[h] / √HS     all of the core's heads' scores, one pass over the keys
//	p[h]    = softmax(s[h])        each head's row of scores, in the core's cache
//	out_h   = Σ_j p[h, j]·v_j[h]   one pass over the values, out (heads·HS) in cache
//
// In a BF16 model the scores and the probabilities are rounded as attendBlock rounds them,
// and the keys and values are widened to float32 in registers (their products with the
// bfloat16 query and probabilities are exact in float32). The walk needs AVX2 and heads of
// a multiple of 8 channels (useDecodeWalk); elsewhere the decode step takes attendBlock's
// one-query path, a head at a time.

// useDecodeWalk says whether a decode step's attention with heads of HS channels takes the
// walk over the rows.
func useDecodeWalk(HS int) bool { return HasAVX2 && HS%8 == 0 }

// decodeSplitBytes is the fewest bytes of keys and values a layer's decode attention reads
// before it is split over the cores: below, handing half of the heads to another core costs
// more than reading them.
var decodeSplitBytes = 256 << 10

// attendDecode is AttentionCached (kc, vc set) or AttentionCached16 (kc16, vc16) of one
// query, n = 1, on the walk over the rows: the heads split over the cores when the layer's
// cache is large enough to pay for it.
func attendDecode(a cachedArgs) {
	m, size := a.pos0+1, 4
	if a.kc16 != nil {
		size = 2
	}
	w := 1
	if 2*m*a.C*size >= decodeSplitBytes {
		w = Workers()
	}
	decodeRegion.Chunks(a.NH, max(1, a.NH/w), a)
}

// decodeRegion runs the heads lo…hi-1 of attendDecode.
var decodeRegion = Region[cachedArgs]{Body: func(a *cachedArgs, lo, hi int) {
	m, C := a.pos0+1, a.C
	HS, heads := C/a.NH, hi-lo
	buf := getFloats(&cachedScratch, heads*m)
	defer cachedScratch.Put(buf)
	s := (*buf)[:heads*m] // (heads, m)
	q, out := a.qkv[lo*HS:hi*HS], a.out[lo*HS:hi*HS]
	if a.kc16 != nil {
		headDots16(s, q, a.kc16[lo*HS:], m, heads, HS, C)
	} else {
		headDots(s, q, a.kc[lo*HS:], m, heads, HS, C)
	}
	// Each head's softmax; the roundings and the scaling, every head's scores at once.
	scale := float32(1 / math.Sqrt(float64(HS)))
	if a.bf16 {
		roundScores(s, scale)
	} else {
		for j := range s {
			s[j] *= scale
		}
	}
	for h := range heads {
		softmaxCausal(s[h*m:(h+1)*m], m)
	}
	if a.bf16 {
		RoundBF16(s)
	}
	clear(out)
	if a.vc16 != nil {
		headRows16(out, s, a.vc16[lo*HS:], m, heads, HS, C)
	} else {
		headRows(out, s, a.vc[lo*HS:], m, heads, HS, C)
	}
}}

// decodeCheck panics unless the walk's operands hold what it reads: s (heads, m), q or out
// (heads·HS), and m rows of stride ld of which the first heads·HS numbers are read.
func decodeCheck(s, x []float32, rowsLen, m, heads, HS, ld int) {
	if HS%8 != 0 || len(s) < heads*m || len(x) < heads*HS || m > 0 && rowsLen < (m-1)*ld+heads*HS {
		panic("gpt/internal/fast: decode attention: operands too short")
	}
}

// headDots sets s[h·m+j] = q[h·HS : (h+1)·HS]·k[j·ld+h·HS : j·ld+(h+1)·HS] for the rows
// j < m and the heads h < heads.
func headDots(s, q, k []float32, m, heads, HS, ld int) {
	decodeCheck(s, q, len(k), m, heads, HS, ld)
	switch {
	case m == 0:
	case use512(HS):
		headDotsAVX512(&s[0], &q[0], &k[0], m, heads, HS, ld, m)
	default:
		headDotsAVX2(&s[0], &q[0], &k[0], m, heads, HS, ld, m)
	}
}

// headDots16 is headDots with k in bfloat16 (q rounded to bfloat16 first where it runs on
// VDPBF16PS).
func headDots16(s, q []float32, k []uint16, m, heads, HS, ld int) {
	decodeCheck(s, q, len(k), m, heads, HS, ld)
	switch {
	case m == 0:
	case use512(HS):
		qb := bfloat16s(q[:heads*HS])
		headDots16AVX512BF16(&s[0], &(*qb)[0], &k[0], m, heads, HS, ld, m)
		halves.Put(qb)
	default:
		headDots16AVX2(&s[0], &q[0], &k[0], m, heads, HS, ld, m)
	}
}

// headRows adds Σ_j p[h·m+j]·v[j·ld+h·HS : j·ld+(h+1)·HS] to out[h·HS : (h+1)·HS] for the
// heads h < heads, over the rows j < m.
func headRows(out, p, v []float32, m, heads, HS, ld int) {
	decodeCheck(p, out, len(v), m, heads, HS, ld)
	switch {
	case m == 0:
	case use512(HS):
		headRowsAVX512(&out[0], &p[0], &v[0], m, heads, HS, ld, m)
	default:
		headRowsAVX2(&out[0], &p[0], &v[0], m, heads, HS, ld, m)
	}
}

// headRows16 is headRows with v in bfloat16.
func headRows16(out, p []float32, v []uint16, m, heads, HS, ld int) {
	decodeCheck(p, out, len(v), m, heads, HS, ld)
	switch {
	case m == 0:
	case use512(HS):
		headRows16AVX512(&out[0], &p[0], &v[0], m, heads, HS, ld, m)
	default:
		headRows16AVX2(&out[0], &p[0], &v[0], m, heads, HS, ld, m)
	}
}

// use512 says whether the walk over heads of HS channels takes the AVX-512 kernels
// (attention_decode512_amd64.s): on a CPU with AVX-512 BF16, for heads of a multiple of 32
// channels (every GPT-2's 64).
func use512(HS int) bool { return HasAVX512BF16 && HS%32 == 0 }
