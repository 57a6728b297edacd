package fast

import "unsafe"

// The arm64 side of sgemm.go: the micro-kernel in NEON assembly (sgemm_arm64.s), and the two
// panel packers, which amd64 writes in assembly, as plain loops (packing is a small part of
// a product's time; the micro-kernel is nearly all of it).

// kern6x16 computes the 6×16 product of a packed tile of op(A) (a[p*6+i]) and a packed
// panel of op(B) (b[p*16+j]) over kc steps, and adds it to C (row stride ldc), or, when
// bias is not nil, stores it plus bias[0:16] in C without reading C (sgemm_arm64.s).
//
//go:noescape
func kern6x16(kc int, a, b, c *float32, ldc int, bias *float32)

// widenPanel16 widens sixteen bfloat16 from each of kc rows of B (row stride ldb) into
// dst[p*16+j].
func widenPanel16(kc int, b *uint16, ldb int, dst *float32) {
	if kc == 0 {
		return
	}
	src := unsafe.Slice(b, (kc-1)*ldb+nr)
	out := unsafe.Slice(dst, kc*nr)
	for p := 0; p < kc; p++ {
		row, d := src[p*ldb:p*ldb+nr], out[p*nr:p*nr+nr]
		for j, h := range row {
			d[j] = widen(h)
		}
	}
}

// packBT16 packs the first 8·kc8 steps of a panel of 16 rows of B read transposed:
// dst[p*16+j] = b[j*ldb+p] for p < 8·kc8, j < 16.
func packBT16(kc8 int, b *float32, ldb int, dst *float32) {
	kc := 8 * kc8
	if kc == 0 {
		return
	}
	src := unsafe.Slice(b, (nr-1)*ldb+kc)
	out := unsafe.Slice(dst, kc*nr)
	for j := 0; j < nr; j++ {
		row := src[j*ldb : j*ldb+kc]
		for p, v := range row {
			out[p*nr+j] = v
		}
	}
}
