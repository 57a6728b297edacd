package fast

import (
	"math"
	"sync"
)

// attentionPacked is attentionForward on a CPU with AVX2 when a head has a multiple of 16
// channels (every GPT-2 size has 64): the same fused causal kernel, with both of its
// products run by sgemm's 6×16 micro-kernel (kern6x16S) on panels packed once per head.
//
// BLAS libraries lose most of their speed on attention's products: they are small
// (a block of queries against one head's keys, 64 deep), and a general gemm repacks
// its operands on every call, which for a key matrix read transposed costs more than
// the multiply. Here each head's keys and values are packed once, in the order the
// micro-kernel reads them:
//
//	kp  (panels of 16 keys, HS, 16)       scaled by 1/√HS
//	vp  (HS/16 panels of channels, T, 16)
//
// and then, for each block of queries (spread over the cores):
//
//	s   = q·kᵀ/√HS         per 6×16 tile, skipping the key panels past the tile's diagonal;
//	                       the micro-kernel reads the six queries where they are in qkv
//	e   = exp(s − max s)   per row, masked, in place
//	out = e·v / Σe         per 6×16 tile, over the keys up to the tile's last query, the
//	                       micro-kernel reading e's six rows where they are (kern6x16S)
//
// With bf16 the keys are packed unscaled, each tile of scores is rounded as roundScores
// says, and the probabilities are normalised and rounded to bfloat16 before the product
// with v, as PyTorch's bfloat16 softmax returns them.
func attentionPacked(out, att, qkv []float32, B, T, C, NH int, bf16 bool) {
	HS := C / NH
	tiles := (T + mr - 1) / mr
	panels := (T + nr - 1) / nr
	Tk := panels * nr // keys rounded up to whole panels
	kpLen := panels * HS * nr
	perHead := 2 * kpLen // kp, then vp

	buf := getFloats(&packedHeads, B*NH*perHead)
	defer packedHeads.Put(buf)
	heads := *buf
	scale := float32(1 / math.Sqrt(float64(HS)))
	kScale := scale
	if bf16 {
		kScale = 1 // the scores are scaled after their first rounding
	}
	For(B*NH, func(_, bh int) {
		b, h := bh/NH, bh%NH
		x := qkv[b*T*3*C:]
		kp, vp := heads[bh*perHead:bh*perHead+kpLen], heads[bh*perHead+kpLen:(bh+1)*perHead]
		for q := 0; q < panels; q++ { // keys, scaled, a panel of 16 at a time: written in order
			for j := 0; j < nr; j++ {
				t := q*nr + j
				if t >= T {
					for p := 0; p < HS; p++ {
						kp[(q*HS+p)*nr+j] = 0
					}
					continue
				}
				k := x[t*3*C+C+h*HS : t*3*C+C+h*HS+HS]
				for p, v := range k {
					kp[(q*HS+p)*nr+j] = v * kScale
				}
			}
		}
		for t := 0; t < Tk; t++ { // values: rows of 16 channels, zero past T
			for c := 0; c < HS/nr; c++ {
				dst := vp[(c*Tk+t)*nr : (c*Tk+t+1)*nr]
				if t < T {
					copy(dst, x[t*3*C+2*C+h*HS+c*nr:])
				} else {
					clear(dst)
				}
			}
		}
	})

	const blockTiles = 10 // queries per task: 60
	blocks := (tiles + blockTiles - 1) / blockTiles
	scratch := make([]*[]float32, Workers())
	For(B*NH*blocks, func(w, i int) {
		bh, blk := i/blocks, i%blocks
		b, h := bh/NH, bh%NH
		kp, vp := heads[bh*perHead:bh*perHead+kpLen], heads[bh*perHead+kpLen:(bh+1)*perHead]
		q := qkv[(b*T)*3*C+h*HS:] // this head's queries, row stride 3C
		if scratch[w] == nil {
			scratch[w] = getFloats(&attnScratch, blockTiles*mr*Tk)
		}
		s := *scratch[w] // scores, then exponentials: (60 rows, ldS)

		t0 := blk * blockTiles * mr
		nt := min(blockTiles, tiles-blk*blockTiles)
		m := min(t0+nt*mr, T)         // keys visible to the block's last query
		ldS := (m + nr - 1) / nr * nr // whole panels
		clear(s[:nt*mr*ldS])
		var tmp [mr * nr]float32
		var inv [mr]float32
		for ti := 0; ti < nt; ti++ {
			r0 := t0 + ti*mr
			rows := min(mr, T-r0)
			keys := r0 + rows // keys visible to the tile's last query
			st := s[ti*mr*ldS : (ti+1)*mr*ldS]
			a, rs := &q[r0*3*C], 3*C // the tile's six queries where they are
			if rows < mr {           // the last tile: its rows, zero-padded to six
				qpad := make([]float32, mr*HS)
				for i := 0; i < rows; i++ {
					copy(qpad[i*HS:(i+1)*HS], q[(r0+i)*3*C:(r0+i)*3*C+HS])
				}
				a, rs = &qpad[0], HS
			}
			for p := 0; p <= (keys-1)/nr; p++ {
				kern6x16S(HS, a, rs, 1, &kp[p*HS*nr], &st[p*nr], ldS)
			}
			// Each row's exponentials, masked; the division by their sum waits for the
			// output (6×16 numbers instead of a row of keys).
			for i := 0; i < rows; i++ {
				n := r0 + i + 1 // keys this query sees
				row := st[i*ldS : i*ldS+keys]
				if bf16 {
					roundScores(row[:n], scale)
				}
				inv[i] = 1 / expSum(row[:n], rowMax(row[:n]))
				clear(row[n:])
				if bf16 { // the probabilities themselves, rounded: the product divides by nothing
					for j, e := range row[:n] {
						row[j] = roundBF16One(e * inv[i])
					}
					inv[i] = 1
				}
				if att != nil {
					a := att[((b*NH+h)*T+r0+i)*T : ((b*NH+h)*T+r0+i+1)*T]
					for j, e := range row[:n] {
						a[j] = e * inv[i]
					}
					clear(a[n:])
				}
			}
			for c := 0; c < HS/nr; c++ {
				clear(tmp[:])
				kern6x16S(keys, &st[0], ldS, 1, &vp[c*Tk*nr], &tmp[0], nr)
				for i := 0; i < rows; i++ {
					o := out[(b*T+r0+i)*C+h*HS+c*nr : (b*T+r0+i)*C+h*HS+(c+1)*nr]
					for j := range o {
						o[j] = tmp[i*nr+j] * inv[i]
					}
				}
			}
		}
	})
	for _, p := range scratch {
		if p != nil {
			attnScratch.Put(p)
		}
	}
}

// maxAVX2 is the largest of x, eight at a time; len(x) is a multiple of 8 (attention_amd64.s).
func maxAVX2(x []float32) float32

// The packed heads and the per-worker scratch are reused from call to call (a forward of
// GPT-2 Small packs 9 MB per layer).
var packedHeads, attnScratch sync.Pool

// usePacked says whether attentionForward can take attentionPacked's path.
func usePacked(HS int) bool { return HasAVX2 && HS%nr == 0 }
