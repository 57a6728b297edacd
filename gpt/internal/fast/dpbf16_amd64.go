package fast

import "sync"

// The many-row products of a BF16 model on CPUs with AVX-512 BF16 (HasAVX512BF16): out =
// inp·op(W) + bias with W in bfloat16, on VDPBF16PS, which multiplies pairs of bfloat16 and
// accumulates in float32. The scheme is our sgemm's (sgemm.go), on pairs: both
// operands are packed as pairs of consecutive steps of the shared dimension, one pair per
// uint32 — a 6 × k tile of inp rounded to bfloat16 (a BF16 model's activations are
// bfloat16 values already, so the rounding changes nothing there), a k × 32 panel of W
// interleaved two rows at a time — and an assembly micro-kernel (dpbf16_amd64.s) keeps a
// 12×32 tile of out in 24 registers while it runs down the pairs. No float32 copy of W is
// made: its panels are packed in bfloat16, a pair per 32 bits.

const (
	mr2, nr2 = 12, 32 // the micro-kernel's tile
	mcBlk2   = 144    // rows of inp packed at a time: 12 tiles
	ncBlk2   = 1536   // columns of op(W) packed at a time: 48 panels
)

// kc2For is the block of the shared dimension in pairs: all of it up to 384 pairs (768
// steps, one pass for C), else 192 (a 32 KB panel, 24 KB of it W, stays in L1).
func kc2For(k2 int) int {
	if k2 <= 384 {
		return k2
	}
	return 192
}

// kern12x32 is the micro-kernel (dpbf16_amd64.s): the 12×32 product of a packed tile
// (a[q*12+i]) and a packed panel (b[q*32+j]) over kc2 pairs, added to C (row stride ldc),
// or, when bias is not nil, stored in C plus bias[0:32].
//
//go:noescape
func kern12x32(kc2 int, a, b *uint32, c *float32, ldc int, bias *float32)

// packPairs32 packs a whole panel of op(B) = B for pairs steps (dpbf16_amd64.s):
// dst[q·32+j] = src[2q·ldb+j] | src[(2q+1)·ldb+j]<<16, for q < pairs and j < 32.
//
//go:noescape
func packPairs32(dst *uint32, src *uint16, ldb, pairs int)

// dpbf16Peak runs n rounds of 24 independent VDPBF16PS, each accumulator += a·b in pairs
// lane by lane, and stores the 24 accumulators' sum in sum (dpbf16_amd64.s): the bf16 peak
// (peak_amd64.go).
//
//go:noescape
func dpbf16Peak(n int, a, b *[16]uint32, sum *[16]float32)

// gemm16 is one product C = A·op(B) + bias, A float32 (m, k), B bfloat16, C (m, n).
type gemm16 struct {
	tB           bool // op(B) = Bᵀ: B is (n, k), the token table
	m, n, k, kc2 int
	k2           int // pairs: ⌈k/2⌉
	a            []float32
	b            []uint16
	c            []float32
	lda, ldb     int
	ldc          int
	bias         []float32 // (n) or nil
	ap, bp       []uint32  // all of A or all of op(B), packed (nil: each core packs its own)
}

// dpGemmBias16 computes C = A·op(B) + bias (every row; nil bias is zero), writing C without
// reading it first, on every core.
func dpGemmBias16(tB bool, m, n, k int, a []float32, lda int, b []uint16, ldb int,
	bias, c []float32, ldc int) {
	k2 := (k + 1) / 2
	g := &gemm16{tB: tB, m: m, n: n, k: k, k2: k2, kc2: kc2For(k2), a: a, b: b, c: c,
		lda: lda, ldb: ldb, ldc: ldc, bias: bias}
	g.run()
}

// run splits the product over the cores, as sgemm.run does.
func (g *gemm16) run() {
	m, n := g.m, g.n
	tiles, panels := (m+mr2-1)/mr2, (n+nr2-1)/nr2
	if Workers() == 1 || (tiles < 2*mcBlk2/mr2 && panels < 8) {
		g.block(0, m, 0, n)
		return
	}
	if m >= n { // split the rows; both cores read all of op(B)
		buf := g.packShared(panels, nr2, n, g.packB)
		defer gemm16Shared.Put(buf)
		g.bp = *buf
		Chunks(tiles, 1, func(lo, hi int) { g.block(lo*mr2, min(hi*mr2, m), 0, n) })
		return
	}
	buf := g.packShared(tiles, mr2, m, g.packA)
	defer gemm16Shared.Put(buf)
	g.ap = *buf
	Chunks(panels, 1, func(lo, hi int) { g.block(0, m, lo*nr2, min(hi*nr2, n)) })
}

// packShared packs all of the operand both cores read, laid out [block of kc2 pairs][unit][pair][width].
func (g *gemm16) packShared(units, width, size int, pack func(dst []uint32, q0, kc2, lo, hi int)) *[]uint32 {
	buf := getUint32s(&gemm16Shared, units*width*g.k2)
	all := *buf
	Chunks(units, 1, func(lo, hi int) {
		for q0 := 0; q0 < g.k2; q0 += g.kc2 {
			kc2 := min(g.kc2, g.k2-q0)
			pack(all[q0*units*width+lo*width*kc2:], q0, kc2, lo*width, min(hi*width, size))
		}
	})
	return buf
}

var gemm16Shared, gemm16Own sync.Pool

// getUint32s takes a slice of at least n uint32 from pool (contents undefined).
func getUint32s(pool *sync.Pool, n int) *[]uint32 {
	if p, ok := pool.Get().(*[]uint32); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]uint32, n)
	return &s
}

// block computes C[r0:r1, c0:c1]: the first block of pairs stores C plus the bias, the next
// ones add to it.
func (g *gemm16) block(r0, r1, c0, c1 int) {
	buf := getUint32s(&gemm16Own, (mcBlk2+ncBlk2)*g.kc2)
	defer gemm16Own.Put(buf)
	ownA, ownB := (*buf)[:mcBlk2*g.kc2], (*buf)[mcBlk2*g.kc2:]
	tiles, panels := (g.m+mr2-1)/mr2, (g.n+nr2-1)/nr2
	for j0 := c0; j0 < c1; j0 += ncBlk2 {
		j1 := min(j0+ncBlk2, c1)
		for q0 := 0; q0 < g.k2; q0 += g.kc2 {
			kc2 := min(g.kc2, g.k2-q0)
			bp := ownB
			if g.bp != nil {
				bp = g.bp[q0*panels*nr2+j0*kc2:]
			} else {
				g.packB(bp, q0, kc2, j0, j1)
			}
			for i0 := r0; i0 < r1; i0 += mcBlk2 {
				i1 := min(i0+mcBlk2, r1)
				ap := ownA
				if g.ap != nil {
					ap = g.ap[q0*tiles*mr2+i0*kc2:]
				} else {
					g.packA(ap, q0, kc2, i0, i1)
				}
				g.kernels(ap, bp, kc2, i0, i1, j0, j1, q0 == 0)
			}
		}
	}
}

// zeros32 is the bias of a product without one.
var zeros32 [nr2]float32

// kernels runs the micro-kernel over C[i0:i1, j0:j1], each panel staying in L1 while the
// tiles stream past it; set stores the products plus the bias instead of adding them.
func (g *gemm16) kernels(ap, bp []uint32, kc2, i0, i1, j0, j1 int, set bool) {
	var edge [mr2 * nr2]float32
	for jc := j0; jc < j1; jc += nr2 {
		cols := min(nr2, j1-jc)
		panel := &bp[(jc-j0)*kc2]
		var bias []float32
		if set {
			bias = zeros32[:cols]
			if g.bias != nil {
				bias = g.bias[jc : jc+cols]
			}
		}
		for ic := i0; ic < i1; ic += mr2 {
			rows := min(mr2, i1-ic)
			tile := &ap[(ic-i0)*kc2]
			if rows == mr2 && cols == nr2 {
				var b *float32
				if set {
					b = &bias[0]
				}
				kern12x32(kc2, tile, panel, &g.c[ic*g.ldc+jc], g.ldc, b)
				continue
			}
			clear(edge[:]) // an edge tile: through a zeroed 12×32 scratch
			kern12x32(kc2, tile, panel, &edge[0], nr2, nil)
			for i := 0; i < rows; i++ {
				crow := g.c[(ic+i)*g.ldc+jc : (ic+i)*g.ldc+jc+cols]
				for j := range crow {
					if set {
						crow[j] = edge[i*nr2+j] + bias[j]
					} else {
						crow[j] += edge[i*nr2+j]
					}
				}
			}
		}
	}
}

// packA packs A[i0:i1, 2·q0 : 2·(q0+kc2)] rounded to bfloat16 as tiles of 12 rows,
// dst[tile][q][i] = A[i][2q] | A[i][2q+1]<<16, zero past i1 and past k.
func (g *gemm16) packA(dst []uint32, q0, kc2, i0, i1 int) {
	for t := 0; t*mr2 < i1-i0; t++ {
		tile := dst[t*mr2*kc2 : (t+1)*mr2*kc2]
		for i := 0; i < mr2; i++ {
			r := i0 + t*mr2 + i
			if r >= i1 {
				for q := 0; q < kc2; q++ {
					tile[q*mr2+i] = 0
				}
				continue
			}
			row := g.a[r*g.lda:][:g.k]
			p := 2 * q0
			q := 0
			for ; q < kc2 && p+1 < g.k; q, p = q+1, p+2 {
				tile[q*mr2+i] = toBF16(row[p]) | toBF16(row[p+1])<<16
			}
			if q < kc2 { // k is odd: the last pair's second half is zero
				tile[q*mr2+i] = toBF16(row[p])
			}
		}
	}
}

// packB packs op(B)[2·q0 : 2·(q0+kc2), j0:j1] as panels of 32 columns,
// dst[panel][q][j] = op(B)[2q][j] | op(B)[2q+1][j]<<16, zero past j1 and past k.
func (g *gemm16) packB(dst []uint32, q0, kc2, j0, j1 int) {
	for t := 0; t*nr2 < j1-j0; t++ {
		panel := dst[t*nr2*kc2 : (t+1)*nr2*kc2]
		jq := j0 + t*nr2
		cols := min(nr2, j1-jq)
		if cols < nr2 {
			clear(panel)
		}
		q := 0
		if !g.tB && cols == nr2 { // a whole panel of B: every full pair in assembly
			q = min(kc2, (g.k-2*q0)/2)
			if q > 0 {
				packPairs32(&panel[0], &g.b[2*q0*g.ldb+jq], g.ldb, q)
			}
		}
		for ; q < kc2; q++ {
			p := 2 * (q0 + q)
			d := panel[q*nr2 : q*nr2+cols]
			if g.tB { // column j of op(B) is row j of B: its pair is two neighbours
				for j := range d {
					row := g.b[(jq+j)*g.ldb:][:g.k]
					if p+1 < g.k {
						d[j] = uint32(row[p]) | uint32(row[p+1])<<16
					} else {
						d[j] = uint32(row[p])
					}
				}
				continue
			}
			r0 := g.b[p*g.ldb+jq:][:cols]
			if p+1 < g.k {
				r1 := g.b[(p+1)*g.ldb+jq:][:cols]
				for j := range d {
					d[j] = uint32(r0[j]) | uint32(r1[j])<<16
				}
			} else {
				for j := range d {
					d[j] = uint32(r0[j])
				}
			}
		}
	}
}
