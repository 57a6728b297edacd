package fast

// The assembly behind sgemm.go on amd64 (AVX2 and FMA).

// kern6x16 computes the 6×16 product of a packed tile of op(A) (a[p*6+i]) and a packed
// panel of op(B) (b[p*16+j]) over kc steps, and adds it to C (row stride ldc), or, when
// bias is not nil, stores it plus bias[0:16] in C without reading C (sgemm_amd64.s).
//
//go:noescape
func kern6x16(kc int, a, b, c *float32, ldc int, bias *float32)

// kern6x16S is kern6x16 with op(A) read at a[i·rs+p·cs] (sgemm_amd64.s).
//
//go:noescape
func kern6x16S(kc int, a *float32, rs, cs int, b, c *float32, ldc int)

// widenPanel16 widens sixteen bfloat16 from each of kc rows of B (row stride ldb) into
// dst[p*16+j] (sgemm16_amd64.s).
//
//go:noescape
func widenPanel16(kc int, b *uint16, ldb int, dst *float32)

// packBT16 packs the first 8·kc8 steps of a panel of 16 rows of B read transposed
// (sgemm_amd64.s).
//
//go:noescape
func packBT16(kc8 int, b *float32, ldb int, dst *float32)

// fmaPeak runs n rounds of twelve independent FMAs (sgemm_amd64.s): BenchmarkKernel's peak.
func fmaPeak(n int)
