package gpt

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/gonum"
)

// The pure-Go build's matrix product. gonum's native Sgemm reaches a few GFLOP/s; where the
// CPU has AVX2 and FMA, fastSgemm replaces it with the classic blocked scheme (GotoBLAS,
// BLIS): pack a block of op(B) into 16-column panels and six rows of op(A) at a time, and
// let an assembly micro-kernel (sgemm_amd64.s) keep a 6×16 tile of C in twelve registers
// while it runs down the shared dimension. Everything else stays gonum's.

// kern6x16 adds to C (row stride ldc) the 6×16 product of a packed panel of op(A)
// (a[p*6+i]) and one of op(B) (b[p*16+j]) over kc steps.
func kern6x16(kc int, a, b, c *float32, ldc int) { kern6x16S(kc, a, 1, mr, b, c, ldc) }

// kern6x16S is kern6x16 with op(A) read at a[i·rs+p·cs] (sgemm_amd64.s).
func kern6x16S(kc int, a *float32, rs, cs int, b, c *float32, ldc int)

const (
	mr, nr = 6, 16 // the micro-kernel's tile
	kcBlk  = 256   // shared-dimension block: a packed A strip and B panel stay in cache
	ncBlk  = 384   // columns of op(B) packed at a time (24 panels)
)

// useFastSgemm makes blas32 use fastBLAS when the CPU has AVX2 and FMA (the pure-Go build).
func useFastSgemm() {
	if hasAVX2 {
		blas32.Use(fastBLAS{})
	}
}

// packBuffers are the packed panels of one sgemmRows call, reused across calls.
type packBuffers struct{ a, b []float32 }

var packPool = sync.Pool{New: func() any { return new(packBuffers) }}

// fastBLAS is gonum's pure-Go BLAS with Sgemm replaced by fastSgemm.
type fastBLAS struct{ gonum.Implementation }

// Sgemm computes C = alpha·op(A)·op(B) + beta·C, row-major, like every BLAS Sgemm.
func (f fastBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m < mr || n < nr || k < 8 || (tA != blas.NoTrans && tA != blas.Trans) || (tB != blas.NoTrans && tB != blas.Trans) {
		f.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
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
		panic("gpt: sgemm: bad dimensions or short slice")
	}
	fastSgemm(tA == blas.Trans, tB == blas.Trans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// fastSgemm splits the rows of C over the cores; each worker packs its own panels.
func fastSgemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int) {
	minRows := mr * 8
	parallelChunks((m+mr-1)/mr, max(1, minRows/mr), func(lo, hi int) {
		r0, r1 := lo*mr, min(hi*mr, m)
		sgemmRows(tA, tB, r0, r1, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	})
}

// sgemmRows computes rows r0…r1-1 of C.
func sgemmRows(tA, tB bool, r0, r1, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int) {
	for i := r0; i < r1; i++ {
		row := c[i*ldc : i*ldc+n]
		switch beta {
		case 0:
			clear(row)
		case 1:
		default:
			for j := range row {
				row[j] *= beta
			}
		}
	}
	rows := r1 - r0
	tiles := (rows + mr - 1) / mr
	buf := packPool.Get().(*packBuffers)
	defer packPool.Put(buf)
	if len(buf.a) < tiles*mr*kcBlk {
		buf.a = make([]float32, tiles*mr*kcBlk)
	}
	if len(buf.b) < ncBlk*kcBlk {
		buf.b = make([]float32, ncBlk*kcBlk)
	}
	ap, bp := buf.a, buf.b
	var tmp [mr * nr]float32
	for p0 := 0; p0 < k; p0 += kcBlk {
		kc := min(kcBlk, k-p0)
		// Pack op(A)[r0:r1, p0:p0+kc]·alpha as tiles of mr rows: ap[tile][p][i].
		for t := 0; t < tiles; t++ {
			dst := ap[t*mr*kc : (t+1)*mr*kc]
			for i := 0; i < mr; i++ {
				r := r0 + t*mr + i
				if r >= r1 {
					for p := 0; p < kc; p++ {
						dst[p*mr+i] = 0
					}
					continue
				}
				if tA {
					for p := 0; p < kc; p++ {
						dst[p*mr+i] = alpha * a[(p0+p)*lda+r]
					}
				} else {
					src := a[r*lda+p0 : r*lda+p0+kc]
					for p, v := range src {
						dst[p*mr+i] = alpha * v
					}
				}
			}
		}
		for j0 := 0; j0 < n; j0 += ncBlk {
			nc := min(ncBlk, n-j0)
			panels := (nc + nr - 1) / nr
			// Pack op(B)[p0:p0+kc, j0:j0+nc] as panels of nr columns: bp[panel][p][j].
			for q := 0; q < panels; q++ {
				dst := bp[q*nr*kc : (q+1)*nr*kc]
				cols := min(nr, nc-q*nr)
				for p := 0; p < kc; p++ {
					d := dst[p*nr : (p+1)*nr]
					if tB {
						for j := 0; j < cols; j++ {
							d[j] = b[(j0+q*nr+j)*ldb+p0+p]
						}
					} else {
						copy(d[:cols], b[(p0+p)*ldb+j0+q*nr:])
					}
					clear(d[cols:])
				}
			}
			for t := 0; t < tiles; t++ {
				i0 := r0 + t*mr
				mrows := min(mr, r1-i0)
				at := &ap[t*mr*kc]
				for q := 0; q < panels; q++ {
					jc := j0 + q*nr
					cols := min(nr, n-jc)
					bt := &bp[q*nr*kc]
					if mrows == mr && cols == nr {
						kern6x16(kc, at, bt, &c[i0*ldc+jc], ldc)
						continue
					}
					// An edge tile: through a zeroed 6×16 scratch.
					clear(tmp[:])
					kern6x16(kc, at, bt, &tmp[0], nr)
					for i := 0; i < mrows; i++ {
						crow := c[(i0+i)*ldc+jc : (i0+i)*ldc+jc+cols]
						for j := range crow {
							crow[j] += tmp[i*nr+j]
						}
					}
				}
			}
		}
	}
}
