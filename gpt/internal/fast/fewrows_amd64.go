package fast

// The assembly behind fewrows.go (fewrows_amd64.s).

// kernRows6x16 computes P[i][j] = Σ_p a[i·lda+p]·b[p·ldb+j] for i < 6, j < 16, p < kc
// (kern6x16 with neither operand packed), adds it to C (row stride ldc), or, when bias is
// not nil, stores it plus bias[0:16] in C without reading C; with cont, its chains of FMAs
// start from C and end there (the next steps of an earlier call's).
//
//go:noescape
func kernRows6x16(kc int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int, bias *float32, cont bool)

// kernRows6x16H is kernRows6x16 with b in bfloat16, widened in registers.
//
//go:noescape
func kernRows6x16H(kc int, a *float32, lda int, b *uint16, ldb int, c *float32, ldc int, bias *float32, cont bool)
