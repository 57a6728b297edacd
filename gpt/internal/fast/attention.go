package fast

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
)

// Causal self-attention, fused: the kernel takes the queries QBlock at a time, computes the
// scores of the block against the keys up to its last position only (one gemm), masks and
// normalises them in place, and multiplies by the values (a second gemm). Only a QBlock×T
// strip of scores exists at a time, never the T×T matrix, and the work above the diagonal
// is skipped except inside the diagonal block. Blocks of all heads are spread over the
// cores. Where the CPU has AVX2 and a head has a multiple of 16 channels, the products run
// on sgemm's micro-kernel over panels packed once per head (attention_packed_amd64.go).

// QBlock is how many queries the fused kernel handles per step (the tests cross it).
const QBlock = 64

// Attention is the causal self-attention of B sequences of T positions:
//
//	out (B, T, C)        heads side by side, before attn.c_proj
//	att (B, NH, T, T)    the attention probabilities, saved for the backward pass; nil
//	                     when not training (then no T×T matrix is ever allocated)
//	qkv (B, T, 3*C)      q|k|v from attn.c_attn
//
// bf16 rounds as PyTorch's bfloat16 attention does: the scores q·k to bfloat16, then
// divided by √HS and rounded again, and the probabilities (see roundScores).
func Attention(out, att, qkv []float32, B, T, C, NH int, bf16 bool) {
	HS := C / NH
	if usePacked(HS) {
		attentionPacked(out, att, qkv, B, T, C, NH, bf16) // attention_packed_amd64.go
		return
	}
	nBlocks := (T + QBlock - 1) / QBlock
	scratch := make([][]float32, Workers())
	For(B*NH*nBlocks, func(w, i int) {
		b, h, blk := i/(NH*nBlocks), i/nBlocks%NH, i%nBlocks
		if scratch[w] == nil {
			scratch[w] = make([]float32, QBlock*T)
		}
		t0 := blk * QBlock
		nq := min(QBlock, T-t0)
		base := b * T * 3 * C
		var a []float32
		if att != nil {
			a = att[((b*NH+h)*T+t0)*T:]
		}
		attendBlock(out[(b*T+t0)*C+h*HS:], C, a, T,
			qkv[base+t0*3*C+h*HS:], 3*C,
			qkv[base+C+h*HS:], 3*C,
			qkv[base+2*C+h*HS:], 3*C,
			nq, t0, HS, scratch[w], bf16)
	})
}

// AttentionCached is the attention of n new positions pos0…pos0+n-1 of one sequence whose
// keys and values for positions 0…pos0+n-1 are in the cache of this layer:
//
//	out    (n, C)
//	qkv    (n, 3*C)        only q is read; k and v were copied into the cache
//	kc, vc (pos0+n, C)     the layer's keys and values
//
// Each core takes a range of the (head, block of queries) tasks, with one scratch from a
// pool, so that a decode step allocates nothing. A single query (the decode step) walks the
// cache's rows once for all heads where the CPU has AVX2 (attention_decode.go).
func AttentionCached(out, qkv, kc, vc []float32, n, pos0, C, NH int, bf16 bool) {
	args := cachedArgs{out: out, qkv: qkv, kc: kc, vc: vc, n: n, pos0: pos0, C: C, NH: NH, bf16: bf16}
	if n == 1 && useDecodeWalk(C/NH) {
		attendDecode(args) // attention_decode.go
		return
	}
	nBlocks := (n + QBlock - 1) / QBlock
	cachedRegion.Chunks(NH*nBlocks, 1, args)
}

// cachedArgs are the operands of AttentionCached, or with kc16 and vc16 set of
// AttentionCached16.
type cachedArgs struct {
	out, qkv, kc, vc []float32
	kc16, vc16       []uint16
	n, pos0, C, NH   int
	bf16             bool
}

// cachedRegion runs the tasks lo…hi-1 of AttentionCached: task i is head i/nBlocks, block
// of queries i%nBlocks.
var cachedRegion = Region[cachedArgs]{Body: func(a *cachedArgs, lo, hi int) {
	n, pos0, C := a.n, a.pos0, a.C
	HS, nBlocks := C/a.NH, (n+QBlock-1)/QBlock
	buf := getFloats(&cachedScratch, min(QBlock, n)*(pos0+n))
	defer cachedScratch.Put(buf)
	for i := lo; i < hi; i++ {
		h, blk := i/nBlocks, i%nBlocks
		t0 := blk * QBlock
		nq := min(QBlock, n-t0)
		attendBlock(a.out[t0*C+h*HS:], C, nil, 0,
			a.qkv[t0*3*C+h*HS:], 3*C,
			a.kc[h*HS:], C,
			a.vc[h*HS:], C,
			nq, pos0+t0, HS, *buf, a.bf16)
	}
}}

// cachedScratch holds the cached attention's scores (and, in BF16, widened keys and values)
// from call to call.
var cachedScratch sync.Pool

// AttentionCached16 is AttentionCached over a BF16 model's cache: kc, vc (pos0+n, C) in
// bfloat16, the scores and probabilities rounded as Attention's bf16 says. A single query
// (the decode step) walks the cache's rows once for all heads (attention_decode.go) or,
// without AVX2, reads each head's keys and values with the bf16 gemv kernels (gemv16.go);
// more (a prompt) widen each head's keys and values into a scratch first. Each core takes a
// range of heads.
func AttentionCached16(out, qkv []float32, kc, vc []uint16, n, pos0, C, NH int) {
	args := cachedArgs{out: out, qkv: qkv, kc16: kc, vc16: vc, n: n, pos0: pos0, C: C, NH: NH, bf16: true}
	if n == 1 && useDecodeWalk(C/NH) {
		attendDecode(args) // attention_decode.go
		return
	}
	cached16Region.Chunks(NH, 1, args)
}

// cached16Region runs the heads lo…hi-1 of AttentionCached16.
var cached16Region = Region[cachedArgs]{Body: func(a *cachedArgs, lo, hi int) {
	n, pos0, C := a.n, a.pos0, a.C
	HS, m := C/a.NH, pos0+n
	scale := float32(1 / math.Sqrt(float64(HS)))
	size := m
	if n > 1 {
		size = 2*m*HS + min(QBlock, n)*m
	}
	buf := getFloats(&cachedScratch, size)
	defer cachedScratch.Put(buf)
	for h := lo; h < hi; h++ {
		if n == 1 {
			s := (*buf)[:m]
			gemvDot16(s, a.qkv[h*HS:h*HS+HS], a.kc16[h*HS:], C)
			roundScores(s, scale)
			softmaxCausal(s, m)
			RoundBF16(s)
			o := a.out[h*HS : h*HS+HS]
			clear(o)
			gemvRows16(o, s, a.vc16[h*HS:], C)
			continue
		}
		k, v, s := (*buf)[:m*HS], (*buf)[m*HS:2*m*HS], (*buf)[2*m*HS:]
		for t := 0; t < m; t++ {
			for i := 0; i < HS; i++ {
				k[t*HS+i], v[t*HS+i] = widen(a.kc16[t*C+h*HS+i]), widen(a.vc16[t*C+h*HS+i])
			}
		}
		for t0 := 0; t0 < n; t0 += QBlock {
			nq := min(QBlock, n-t0)
			attendBlock(a.out[t0*C+h*HS:], C, nil, 0, a.qkv[t0*3*C+h*HS:], 3*C, k, HS, v, HS,
				nq, pos0+t0, HS, s, true)
		}
	}
}}

// attendBlock is the fused kernel for one head and nq consecutive queries, the first at
// absolute position pos (keys and values start at position 0). Rows are strided:
//
//	out (nq, HS) stride outS    q (nq, HS) stride qS    k, v (pos+nq, HS) strides kS, vS
//	att (nq, attS)              probabilities written when not nil (zero past the mask)
//	s   scratch of at least nq·(pos+nq)
//	bf16 rounds the scores and probabilities as Attention says
func attendBlock(out []float32, outS int, att []float32, attS int, q []float32, qS int,
	k []float32, kS int, v []float32, vS int, nq, pos, HS int, s []float32, bf16 bool) {
	m := pos + nq // keys visible to the last query
	scale := float32(1 / math.Sqrt(float64(HS)))
	if nq == 1 {
		// One query (the cached decode step): two matrix-vector products (gemv.go).
		gemvDot(s[:m], q[:HS], k, kS)
		if bf16 {
			roundScores(s[:m], scale)
		} else {
			for j := range s[:m] {
				s[j] *= scale
			}
		}
		softmaxCausal(s[:m], m)
		if bf16 {
			RoundBF16(s[:m])
		}
		clear(out[:HS])
		gemvRows(out[:HS], s[:m], v, vS)
	} else {
		// scores (nq, m) = q·kᵀ/√HS
		alpha := scale
		if bf16 {
			alpha = 1 // rounded before and after the division
		}
		impl.Sgemm(blas.NoTrans, blas.Trans, nq, m, HS, alpha, q, qS, k, kS, 0, s, m)
		for r := 0; r < nq; r++ {
			row := s[r*m : (r+1)*m]
			if bf16 {
				roundScores(row[:pos+r+1], scale)
			}
			softmaxCausal(row, pos+r+1)
			if bf16 {
				RoundBF16(row)
			}
		}
		// out (nq, HS) = p·v
		impl.Sgemm(blas.NoTrans, blas.NoTrans, nq, HS, m, 1, s, m, v, vS, 0, out, outS)
	}
	if att != nil {
		for r := 0; r < nq; r++ {
			row := att[r*attS : r*attS+attS]
			n := copy(row, s[r*m:(r+1)*m])
			clear(row[n:])
		}
	}
}

// softmaxCausal replaces row[:n] by its softmax and zeroes row[n:], the masked future.
func softmaxCausal(row []float32, n int) {
	if n == 0 {
		clear(row)
		return
	}
	inv := 1 / expSum(row[:n], rowMax(row[:n]))
	for j := range row[:n] {
		row[j] *= inv
	}
	clear(row[n:])
}

// roundScores replaces each score x = q·k by bf(bf(x)·scale), bf rounding to bfloat16:
// PyTorch's (q @ kᵀ) / √HS on bfloat16 tensors, a rounded product then a rounded division.
// (For HS = 64, as in every GPT-2, the division by 8 is exact and the second rounding does
// nothing.)
func roundScores(row []float32, scale float32) {
	RoundBF16(row) // eight at a time where the CPU has AVX2
	for j := range row {
		row[j] *= scale
	}
	RoundBF16(row)
}

// roundBF16One is f rounded to the nearest bfloat16, ties to even, as a float32.
func roundBF16One(f float32) float32 { return math.Float32frombits(toBF16(f) << 16) }

// rowMax is the largest of x (not empty): eight at a time with AVX2 where the CPU has it.
func rowMax(x []float32) float32 {
	n := 0
	if HasAVX2 {
		n = len(x) &^ 7
	}
	mx := x[0]
	if n > 0 {
		mx = maxAVX2(x[:n])
	}
	for _, v := range x[n:] {
		mx = max(mx, v)
	}
	return mx
}

// AttentionBackward is the gradient of Attention (llm.c's attention_backward),
// one head of one sequence per task, in blocks of QBlock queries like the forward so that
// the work above the causal diagonal is skipped. For a block of queries with
// probabilities P (saved in att), scores S = Q·Kᵀ/√HS and output Y = P·V:
//
//	dP = dY·Vᵀ           dV += Pᵀ·dY
//	dS = P ⊙ (dP - rowsum(P ⊙ dP))      (the softmax backward; zero past the mask)
//	dQ += dS·K/√HS       dK += dSᵀ·Q/√HS
//
//	dqkv (B, T, 3*C)   dout (B, T, C)   qkv (B, T, 3*C)   att (B, NH, T, T)
func AttentionBackward(dqkv, dout, qkv, att []float32, B, T, C, NH int) {
	HS := C / NH
	scale := float32(1 / math.Sqrt(float64(HS)))
	scratch := make([][]float32, Workers())
	For(B*NH, func(w, i int) {
		b, h := i/NH, i%NH
		if scratch[w] == nil {
			scratch[w] = make([]float32, QBlock*T)
		}
		ds := scratch[w]
		base := b * T * 3 * C
		q, k, v := qkv[base+h*HS:], qkv[base+C+h*HS:], qkv[base+2*C+h*HS:]
		dq, dk, dv := dqkv[base+h*HS:], dqkv[base+C+h*HS:], dqkv[base+2*C+h*HS:]
		for t0 := 0; t0 < T; t0 += QBlock {
			nq := min(QBlock, T-t0)
			m := t0 + nq                 // keys visible to the block's last query
			p := att[((b*NH+h)*T+t0)*T:] // (nq, T) rows, stride T
			dy := dout[(b*T+t0)*C+h*HS:] // (nq, HS), stride C
			// dP (nq, m) = dY·Vᵀ
			impl.Sgemm(blas.NoTrans, blas.Trans, nq, m, HS, 1, dy, C, v, 3*C, 0, ds, m)
			// dV (m, HS) += Pᵀ·dY
			impl.Sgemm(blas.Trans, blas.NoTrans, m, HS, nq, 1, p, T, dy, C, 1, dv, 3*C)
			// softmax backward, row by row
			for r := 0; r < nq; r++ {
				pr, dr := p[r*T:r*T+m], ds[r*m:(r+1)*m]
				var dot float32
				for j := range dr {
					dot += pr[j] * dr[j]
				}
				for j := range dr {
					dr[j] = pr[j] * (dr[j] - dot)
				}
			}
			// dQ (nq, HS) += dS·K·scale;  dK (m, HS) += dSᵀ·Q·scale
			impl.Sgemm(blas.NoTrans, blas.NoTrans, nq, HS, m, scale, ds, m, k, 3*C, 1, dq[t0*3*C:], 3*C)
			impl.Sgemm(blas.Trans, blas.NoTrans, m, HS, nq, scale, ds, m, q[t0*3*C:], 3*C, 1, dk, 3*C)
		}
	})
}
