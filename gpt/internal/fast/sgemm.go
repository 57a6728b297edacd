//go:build amd64 || arm64

package fast

import (
	"sync"

	"gonum.org/v1/gonum/blas"
)

// Our own matrix product for CPUs with AVX2 and FMA (amd64) or NEON (arm64), in the classic
// blocked scheme of GotoBLAS and BLIS. An assembly micro-kernel (sgemm_amd64.s, sgemm_arm64.s)
// keeps a 6×16 tile of C in registers (twelve on amd64, twenty-four on arm64) while it runs
// down the shared dimension, reading six rows of op(A) and
// sixteen columns of op(B) that were packed, in the order it reads them, into panels:
//
//	for each block of nc columns of C                    (the worker's share)
//	  for each block of kc steps of the shared dimension
//	    pack op(B)[kc, nc] as panels of 16 columns       (stays in L3)
//	    for each block of mc rows of C
//	      pack op(A)[mc, kc] as tiles of 6 rows          (stays in L2)
//	      for each panel, for each tile: micro-kernel    (the panel stays in L1)
//
// The two cores split C along its longer side. The operand both cores read in full (all
// of op(A) when they split the columns, all of op(B) when they split the rows) is packed
// once, by both cores together, before they start. The forward's products run here in
// both builds: on this machine they beat single-threaded OpenBLAS given the same split
// (`-bench GemmForward`).

const (
	mr, nr = 6, 16 // the micro-kernel's tile
	mcBlk  = 144   // rows of op(A) packed at a time: 24 tiles
	ncBlk  = 1536  // columns of op(B) packed at a time: 96 panels
)

// kcFor is the block of the shared dimension: all of it up to 768 (one pass over C), else
// 256 (a tile of A and a panel of B in L1 together).
func kcFor(k int) int {
	if k <= 768 {
		return k
	}
	return 256
}

// withFastSgemm is base with its Sgemm replaced by fastSgemm (useBLAS calls it when the
// CPU has our kernels: hasKernels).
func withFastSgemm(base blas.Float32) blas.Float32 { return fastBLAS{base} }

// fastBLAS is a BLAS with Sgemm replaced by fastSgemm.
type fastBLAS struct{ blas.Float32 }

// Sgemm computes C = alpha·op(A)·op(B) + beta·C, row-major, like every BLAS Sgemm.
func (f fastBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m < mr || n < nr || k < 8 || (tA != blas.NoTrans && tA != blas.Trans) || (tB != blas.NoTrans && tB != blas.Trans) {
		f.Float32.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	// Check the slices as gonum does, so that a bad call panics here, not in assembly.
	rowsA, colsA := m, k
	if tA == blas.Trans {
		rowsA, colsA = k, m
	}
	rowsB, colsB := k, n
	if tB == blas.Trans {
		rowsB, colsB = n, k
	}
	if lda < colsA || ldb < colsB || ldc < n || len(a) < lda*(rowsA-1)+colsA ||
		len(b) < ldb*(rowsB-1)+colsB || len(c) < ldc*(m-1)+n {
		panic("gpt/internal/fast: sgemm: bad dimensions or short slice")
	}
	fastSgemm(tA == blas.Trans, tB == blas.Trans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// sgemm is one product C = alpha·op(A)·op(B) + beta·C, with the packed shared operand.
type sgemm struct {
	tA, tB      bool
	m, n, k, kc int
	alpha, beta float32
	a, b, c     []float32
	lda, ldb    int
	ldc         int
	b16         []uint16  // B in bfloat16, widened as it is packed (b is then nil)
	ap, bp      []float32 // all of op(A) or all of op(B), packed (nil: each core packs its own)
	bias        []float32 // added to every row of C when beta is 0 (matmulForward), or nil
}

// zeros16 is the bias of a product without one.
var zeros16 [nr]float32

// fastSgemm computes C = alpha·op(A)·op(B) + beta·C on every core.
func fastSgemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int) {
	g := &sgemm{tA: tA, tB: tB, m: m, n: n, k: k, kc: kcFor(k), alpha: alpha, beta: beta,
		a: a, b: b, c: c, lda: lda, ldb: ldb, ldc: ldc}
	g.run()
}

// sgemmBias computes C = A·op(B) + bias (every row), writing C without reading it first.
func sgemmBias(tB bool, m, n, k int, a []float32, lda int, b []float32, ldb int,
	bias, c []float32, ldc int) {
	g := &sgemm{tB: tB, m: m, n: n, k: k, kc: kcFor(k), alpha: 1, a: a, b: b, c: c,
		lda: lda, ldb: ldb, ldc: ldc, bias: bias}
	g.run()
}

// sgemmBias16 is sgemmBias with B in bfloat16: each panel of op(B) is widened to float32
// as it is packed (16 columns by kc steps, in cache), so no float32 copy of B is ever made.
func sgemmBias16(tB bool, m, n, k int, a []float32, lda int, b []uint16, ldb int,
	bias, c []float32, ldc int) {
	g := &sgemm{tB: tB, m: m, n: n, k: k, kc: kcFor(k), alpha: 1, a: a, b16: b, c: c,
		lda: lda, ldb: ldb, ldc: ldc, bias: bias}
	g.run()
}

// run splits the product over the cores.
func (g *sgemm) run() {
	m, n := g.m, g.n
	tiles, panels := (m+mr-1)/mr, (n+nr-1)/nr
	if Workers() == 1 || (tiles < 2*mcBlk/mr && panels < 8) {
		g.block(0, m, 0, n)
		return
	}
	if m >= n { // split the rows; both cores read all of op(B)
		buf := g.packShared(panels, nr, n, g.packB)
		defer sgemmShared.Put(buf)
		g.bp = *buf
		Chunks(tiles, 1, func(lo, hi int) { g.block(lo*mr, min(hi*mr, m), 0, n) })
		return
	}
	// Split the columns; both cores read all of op(A).
	buf := g.packShared(tiles, mr, m, g.packA)
	defer sgemmShared.Put(buf)
	g.ap = *buf
	Chunks(panels, 1, func(lo, hi int) { g.block(0, m, lo*nr, min(hi*nr, n)) })
}

// packShared packs all of the operand both cores read, the cores taking half of its units
// each (tiles of 6 rows of op(A), or panels of 16 columns of op(B): width), with pack
// (packA or packB) over [0, size). The layout is [block of kc steps][unit][step][width].
func (g *sgemm) packShared(units, width, size int, pack func(dst []float32, p0, kc, lo, hi int)) *[]float32 {
	buf := getFloats(&sgemmShared, units*width*g.k)
	all := *buf
	Chunks(units, 1, func(lo, hi int) {
		for p0 := 0; p0 < g.k; p0 += g.kc {
			kc := min(g.kc, g.k-p0)
			pack(all[p0*units*width+lo*width*kc:], p0, kc, lo*width, min(hi*width, size))
		}
	})
	return buf
}

// The packed shared operand and each core's own panels are reused from call to call.
var sgemmShared, sgemmOwn sync.Pool

// block computes C[r0:r1, c0:c1]. r0 is a multiple of 6 (mr) when op(A) is packed
// already, c0 a multiple of 16 (nr) when op(B) is.
// With beta 0 the first block of the shared dimension stores C (plus the bias) and the
// next ones add to it; C's old contents are never read.
func (g *sgemm) block(r0, r1, c0, c1 int) {
	if g.beta != 0 && g.beta != 1 {
		for i := r0; i < r1; i++ {
			row := g.c[i*g.ldc+c0 : i*g.ldc+c1]
			for j := range row {
				row[j] *= g.beta
			}
		}
	}
	buf := getFloats(&sgemmOwn, (mcBlk+ncBlk)*g.kc)
	defer sgemmOwn.Put(buf)
	ownA, ownB := (*buf)[:mcBlk*g.kc], (*buf)[mcBlk*g.kc:]
	tiles, panels := (g.m+mr-1)/mr, (g.n+nr-1)/nr // of the packed shared operand
	for j0 := c0; j0 < c1; j0 += ncBlk {
		j1 := min(j0+ncBlk, c1)
		for p0 := 0; p0 < g.k; p0 += g.kc {
			kc := min(g.kc, g.k-p0)
			bp := ownB
			if g.bp != nil {
				bp = g.bp[p0*panels*nr+j0*kc:]
			} else {
				g.packB(bp, p0, kc, j0, j1)
			}
			for i0 := r0; i0 < r1; i0 += mcBlk {
				i1 := min(i0+mcBlk, r1)
				ap := ownA
				if g.ap != nil {
					ap = g.ap[p0*tiles*mr+i0*kc:]
				} else {
					g.packA(ap, p0, kc, i0, i1)
				}
				g.kernels(ap, bp, kc, i0, i1, j0, j1, p0 == 0 && g.beta == 0)
			}
		}
	}
}

// kernels runs the micro-kernel over C[i0:i1, j0:j1] with op(A)'s tiles in ap and op(B)'s
// panels in bp, each panel staying in L1 while the tiles stream past it. set stores the
// products (plus the bias) in C instead of adding them.
func (g *sgemm) kernels(ap, bp []float32, kc, i0, i1, j0, j1 int, set bool) {
	var edge [mr * nr]float32
	for jc := j0; jc < j1; jc += nr {
		cols := min(nr, j1-jc)
		panel := &bp[(jc-j0)*kc]
		var bias []float32 // this panel's bias when set, else nil
		if set {
			bias = zeros16[:cols]
			if g.bias != nil {
				bias = g.bias[jc : jc+cols]
			}
		}
		for ic := i0; ic < i1; ic += mr {
			rows := min(mr, i1-ic)
			tile := &ap[(ic-i0)*kc]
			if rows == mr && cols == nr {
				var b *float32
				if set {
					b = &bias[0]
				}
				kern6x16(kc, tile, panel, &g.c[ic*g.ldc+jc], g.ldc, b)
				continue
			}
			clear(edge[:]) // an edge tile: through a zeroed 6×16 scratch
			kern6x16(kc, tile, panel, &edge[0], nr, nil)
			for i := 0; i < rows; i++ {
				crow := g.c[(ic+i)*g.ldc+jc : (ic+i)*g.ldc+jc+cols]
				for j := range crow {
					if set {
						crow[j] = edge[i*nr+j] + bias[j]
					} else {
						crow[j] += edge[i*nr+j]
					}
				}
			}
		}
	}
}

// packA packs alpha·op(A)[i0:i1, p0:p0+kc] as tiles of 6 rows, dst[tile][p][i], zero past i1.
func (g *sgemm) packA(dst []float32, p0, kc, i0, i1 int) {
	for t := 0; t*mr < i1-i0; t++ {
		tile := dst[t*mr*kc : (t+1)*mr*kc]
		r0 := i0 + t*mr
		if !g.tA && g.alpha == 1 && r0+mr <= i1 {
			// The common case: six whole rows read in order, the tile written in order.
			a0 := g.a[r0*g.lda+p0:][:kc]
			a1 := g.a[(r0+1)*g.lda+p0:][:kc]
			a2 := g.a[(r0+2)*g.lda+p0:][:kc]
			a3 := g.a[(r0+3)*g.lda+p0:][:kc]
			a4 := g.a[(r0+4)*g.lda+p0:][:kc]
			a5 := g.a[(r0+5)*g.lda+p0:][:kc]
			for p := range a0 {
				d := tile[p*mr : p*mr+mr : p*mr+mr]
				d[0], d[1], d[2], d[3], d[4], d[5] = a0[p], a1[p], a2[p], a3[p], a4[p], a5[p]
			}
			continue
		}
		if g.tA && g.alpha == 1 && r0+mr <= i1 {
			// op(A) = Aᵀ: the tile's six values of step p are six neighbours in row p of A.
			for p := 0; p < kc; p++ {
				*(*[mr]float32)(tile[p*mr:]) = *(*[mr]float32)(g.a[(p0+p)*g.lda+r0:])
			}
			continue
		}
		for i := 0; i < mr; i++ {
			r := r0 + i
			switch {
			case r >= i1:
				for p := 0; p < kc; p++ {
					tile[p*mr+i] = 0
				}
			case g.tA:
				for p := 0; p < kc; p++ {
					tile[p*mr+i] = g.alpha * g.a[(p0+p)*g.lda+r]
				}
			default:
				for p, v := range g.a[r*g.lda+p0 : r*g.lda+p0+kc] {
					tile[p*mr+i] = g.alpha * v
				}
			}
		}
	}
}

// packB packs op(B)[p0:p0+kc, j0:j1] as panels of 16 columns, dst[panel][p][j], zero past j1.
func (g *sgemm) packB(dst []float32, p0, kc, j0, j1 int) {
	if g.b16 != nil {
		g.packB16(dst, p0, kc, j0, j1)
		return
	}
	for q := 0; q*nr < j1-j0; q++ {
		panel := dst[q*nr*kc : (q+1)*nr*kc]
		jq := j0 + q*nr
		cols := min(nr, j1-jq)
		switch {
		case !g.tB && cols == nr: // sixteen floats of a row of B per step
			for p := 0; p < kc; p++ {
				*(*[nr]float32)(panel[p*nr:]) = *(*[nr]float32)(g.b[(p0+p)*g.ldb+jq:])
			}
		case !g.tB:
			for p := 0; p < kc; p++ {
				d := panel[p*nr : (p+1)*nr]
				copy(d[:cols], g.b[(p0+p)*g.ldb+jq:])
				clear(d[cols:])
			}
		case cols == nr: // column j of op(B) is row j of B: sixteen rows read side by side
			var rows [nr][]float32
			for j := range rows {
				rows[j] = g.b[(jq+j)*g.ldb+p0:][:kc]
			}
			kc8 := kc / 8
			packBT16(kc8, &rows[0][0], g.ldb, &panel[0]) // eight steps at a time, in registers
			for p := kc8 * 8; p < kc; p++ {
				d := (*[nr]float32)(panel[p*nr:])
				for j := range d {
					d[j] = rows[j][p]
				}
			}
		default:
			for j := 0; j < nr; j++ {
				if j >= cols {
					for p := 0; p < kc; p++ {
						panel[p*nr+j] = 0
					}
					continue
				}
				for p, v := range g.b[(jq+j)*g.ldb+p0 : (jq+j)*g.ldb+p0+kc] {
					panel[p*nr+j] = v
				}
			}
		}
	}
}

// packB16 is packB for B in bfloat16, widening each value to the float32 it is exactly.
func (g *sgemm) packB16(dst []float32, p0, kc, j0, j1 int) {
	for q := 0; q*nr < j1-j0; q++ {
		panel := dst[q*nr*kc : (q+1)*nr*kc]
		jq := j0 + q*nr
		cols := min(nr, j1-jq)
		switch {
		case !g.tB && cols == nr: // sixteen values of a row of B per step, in registers
			widenPanel16(kc, &g.b16[p0*g.ldb+jq], g.ldb, &panel[0])
		case !g.tB:
			for p := 0; p < kc; p++ {
				d := panel[p*nr : (p+1)*nr]
				for j, h := range g.b16[(p0+p)*g.ldb+jq:][:cols] {
					d[j] = widen(h)
				}
				clear(d[cols:])
			}
		case cols == nr: // column j of op(B) is row j of B: sixteen rows widened, then transposed
			var rows [nr * 256]float32 // kc ≤ 256 when k > 768; else in pieces of 256 steps
			for pc := 0; pc < kc; pc += 256 {
				n := min(256, kc-pc)
				for j := 0; j < nr; j++ {
					for p, h := range g.b16[(jq+j)*g.ldb+p0+pc:][:n] {
						rows[j*n+p] = widen(h)
					}
				}
				n8 := n / 8
				packBT16(n8, &rows[0], n, &panel[pc*nr])
				for p := n8 * 8; p < n; p++ {
					d := (*[nr]float32)(panel[(pc+p)*nr:])
					for j := range d {
						d[j] = rows[j*n+p]
					}
				}
			}
		default:
			for j := 0; j < nr; j++ {
				if j >= cols {
					for p := 0; p < kc; p++ {
						panel[p*nr+j] = 0
					}
					continue
				}
				for p, h := range g.b16[(jq+j)*g.ldb+p0:][:kc] {
					panel[p*nr+j] = widen(h)
				}
			}
		}
	}
}
