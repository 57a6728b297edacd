#include "textflag.h"
#include "dotsum_amd64.h"
#include "attention_decode_amd64.h"

// The walks of a decode step's attention over the cache (attention_decode.go), on AVX2 and
// FMA: rows of keys or values four at a time, in memory order, every head of the call in
// each row before the next four rows. The registers, in all four:
//
//	AX, BX, CX, DX  the four rows          R8   the first of them
//	R9   rows left                         R10  heads·hs, the channels of a row read
//	R11  the rows' stride in bytes         R12  the channel (head h's start at h·hs)
//	R13  the end of the current head       R14  the stride of s or p (a head's scores) in bytes
//	R15  s or p at the current rows, head 0
//	hsl-8(SP) the channels of a head (a multiple of 8)
//
// A bfloat16 row is widened in registers as in gemv16_amd64.s: zero-extended to 32 bits
// (VPMOVZXWD) and shifted left by 16 (VPSLLD).

// SUM1 stores at (DI) the sum of the eight lanes of Y0. It uses X1.
#define SUM1 \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPS X1, X0, X0; \
	VHADDPS X0, X0, X0; \
	VHADDPS X0, X0, X0; \
	VMOVSS X0, (DI)

// func headDotsAVX2(s, q, k *float32, rows, heads, hs, ld, lds int)
// s[h·lds+j] = Σ_d q[h·hs+d]·k[j·ld+h·hs+d] for j < rows, h < heads, d < hs.
TEXT ·headDotsAVX2(SB), NOSPLIT, $8-64
	MOVQ s+0(FP), R15
	MOVQ q+8(FP), SI
	MOVQ k+16(FP), R8
	ARGS(4)

dots4:
	CMPQ R9, $4
	JLT dots1
	PREFETCH4(4)
	FOUR
	MOVQ R15, DI
	XORQ R12, R12
	MOVQ hsl-8(SP), R13

head4:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

chan4:
	VMOVUPS (SI)(R12*4), Y4
	VFMADD231PS (AX)(R12*4), Y4, Y0
	VFMADD231PS (BX)(R12*4), Y4, Y1
	VFMADD231PS (CX)(R12*4), Y4, Y2
	VFMADD231PS (DX)(R12*4), Y4, Y3
	ADDQ $8, R12
	CMPQ R12, R13
	JLT chan4
	SUM4
	ADDQ R14, DI
	ADDQ hsl-8(SP), R13
	CMPQ R12, R10
	JLT head4
	LEAQ (R8)(R11*4), R8
	ADDQ $16, R15
	SUBQ $4, R9
	JMP dots4

dots1:
	TESTQ R9, R9
	JE dotsdone
	MOVQ R15, DI
	XORQ R12, R12
	MOVQ hsl-8(SP), R13

head1:
	VXORPS Y0, Y0, Y0

chan1:
	VMOVUPS (SI)(R12*4), Y4
	VFMADD231PS (R8)(R12*4), Y4, Y0
	ADDQ $8, R12
	CMPQ R12, R13
	JLT chan1
	SUM1
	ADDQ R14, DI
	ADDQ hsl-8(SP), R13
	CMPQ R12, R10
	JLT head1
	ADDQ R11, R8
	ADDQ $4, R15
	DECQ R9
	JMP dots1

dotsdone:
	VZEROUPPER
	RET

// WIDEN loads the eight bfloat16 at (row)(R12*2) into reg as float32.
#define WIDEN(row, reg) \
	VPMOVZXWD (row)(R12*2), reg; \
	VPSLLD $16, reg, reg

// func headDots16AVX2(s, q *float32, k *uint16, rows, heads, hs, ld, lds int)
// headDots with k in bfloat16.
TEXT ·headDots16AVX2(SB), NOSPLIT, $8-64
	MOVQ s+0(FP), R15
	MOVQ q+8(FP), SI
	MOVQ k+16(FP), R8
	ARGS(2)

dots4:
	CMPQ R9, $4
	JLT dots1
	PREFETCH4(2)
	FOUR
	MOVQ R15, DI
	XORQ R12, R12
	MOVQ hsl-8(SP), R13

head4:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

chan4:
	VMOVUPS (SI)(R12*4), Y4
	WIDEN(AX, Y5)
	WIDEN(BX, Y6)
	WIDEN(CX, Y7)
	WIDEN(DX, Y8)
	VFMADD231PS Y5, Y4, Y0
	VFMADD231PS Y6, Y4, Y1
	VFMADD231PS Y7, Y4, Y2
	VFMADD231PS Y8, Y4, Y3
	ADDQ $8, R12
	CMPQ R12, R13
	JLT chan4
	SUM4
	ADDQ R14, DI
	ADDQ hsl-8(SP), R13
	CMPQ R12, R10
	JLT head4
	LEAQ (R8)(R11*4), R8
	ADDQ $16, R15
	SUBQ $4, R9
	JMP dots4

dots1:
	TESTQ R9, R9
	JE dotsdone
	MOVQ R15, DI
	XORQ R12, R12
	MOVQ hsl-8(SP), R13

head1:
	VXORPS Y0, Y0, Y0

chan1:
	VMOVUPS (SI)(R12*4), Y4
	WIDEN(R8, Y5)
	VFMADD231PS Y5, Y4, Y0
	ADDQ $8, R12
	CMPQ R12, R13
	JLT chan1
	SUM1
	ADDQ R14, DI
	ADDQ hsl-8(SP), R13
	CMPQ R12, R10
	JLT head1
	ADDQ R11, R8
	ADDQ $4, R15
	DECQ R9
	JMP dots1

dotsdone:
	VZEROUPPER
	RET

// func headRowsAVX2(out, p, v *float32, rows, heads, hs, ld, lds int)
// out[h·hs+d] += Σ_j p[h·lds+j]·v[j·ld+h·hs+d] for j < rows, h < heads, d < hs: out stays in
// cache, each of its eight channels taking four rows' terms a pass.
TEXT ·headRowsAVX2(SB), NOSPLIT, $8-64
	MOVQ out+0(FP), DI
	MOVQ p+8(FP), R15
	MOVQ v+16(FP), R8
	ARGS(4)

rows4:
	CMPQ R9, $4
	JLT rows1
	PREFETCH4(4)
	FOUR
	MOVQ R15, SI
	XORQ R12, R12
	MOVQ hsl-8(SP), R13

head4:
	VBROADCASTSS 0(SI), Y12
	VBROADCASTSS 4(SI), Y13
	VBROADCASTSS 8(SI), Y14
	VBROADCASTSS 12(SI), Y15

chan4:
	VMOVUPS (DI)(R12*4), Y0
	VMULPS (CX)(R12*4), Y14, Y1
	VFMADD231PS (AX)(R12*4), Y12, Y0
	VFMADD231PS (DX)(R12*4), Y15, Y1
	VFMADD231PS (BX)(R12*4), Y13, Y0
	VADDPS Y1, Y0, Y0
	VMOVUPS Y0, (DI)(R12*4)
	ADDQ $8, R12
	CMPQ R12, R13
	JLT chan4
	ADDQ R14, SI
	ADDQ hsl-8(SP), R13
	CMPQ R12, R10
	JLT head4
	LEAQ (R8)(R11*4), R8
	ADDQ $16, R15
	SUBQ $4, R9
	JMP rows4

rows1:
	TESTQ R9, R9
	JE rowsdone
	MOVQ R15, SI
	XORQ R12, R12
	MOVQ hsl-8(SP), R13

head1:
	VBROADCASTSS 0(SI), Y12

chan1:
	VMOVUPS (DI)(R12*4), Y0
	VFMADD231PS (R8)(R12*4), Y12, Y0
	VMOVUPS Y0, (DI)(R12*4)
	ADDQ $8, R12
	CMPQ R12, R13
	JLT chan1
	ADDQ R14, SI
	ADDQ hsl-8(SP), R13
	CMPQ R12, R10
	JLT head1
	ADDQ R11, R8
	ADDQ $4, R15
	DECQ R9
	JMP rows1

rowsdone:
	VZEROUPPER
	RET

// func headRows16AVX2(out, p *float32, v *uint16, rows, heads, hs, ld, lds int)
// headRows with v in bfloat16.
TEXT ·headRows16AVX2(SB), NOSPLIT, $8-64
	MOVQ out+0(FP), DI
	MOVQ p+8(FP), R15
	MOVQ v+16(FP), R8
	ARGS(2)

rows4:
	CMPQ R9, $4
	JLT rows1
	PREFETCH4(2)
	FOUR
	MOVQ R15, SI
	XORQ R12, R12
	MOVQ hsl-8(SP), R13

head4:
	VBROADCASTSS 0(SI), Y12
	VBROADCASTSS 4(SI), Y13
	VBROADCASTSS 8(SI), Y14
	VBROADCASTSS 12(SI), Y15

chan4:
	VMOVUPS (DI)(R12*4), Y0
	WIDEN(AX, Y4)
	WIDEN(BX, Y5)
	WIDEN(CX, Y6)
	WIDEN(DX, Y7)
	VMULPS Y6, Y14, Y1
	VFMADD231PS Y4, Y12, Y0
	VFMADD231PS Y7, Y15, Y1
	VFMADD231PS Y5, Y13, Y0
	VADDPS Y1, Y0, Y0
	VMOVUPS Y0, (DI)(R12*4)
	ADDQ $8, R12
	CMPQ R12, R13
	JLT chan4
	ADDQ R14, SI
	ADDQ hsl-8(SP), R13
	CMPQ R12, R10
	JLT head4
	LEAQ (R8)(R11*4), R8
	ADDQ $16, R15
	SUBQ $4, R9
	JMP rows4

rows1:
	TESTQ R9, R9
	JE rowsdone
	MOVQ R15, SI
	XORQ R12, R12
	MOVQ hsl-8(SP), R13

head1:
	VBROADCASTSS 0(SI), Y12

chan1:
	VMOVUPS (DI)(R12*4), Y0
	WIDEN(R8, Y4)
	VFMADD231PS Y4, Y12, Y0
	VMOVUPS Y0, (DI)(R12*4)
	ADDQ $8, R12
	CMPQ R12, R13
	JLT chan1
	ADDQ R14, SI
	ADDQ hsl-8(SP), R13
	CMPQ R12, R10
	JLT head1
	ADDQ R11, R8
	ADDQ $4, R15
	DECQ R9
	JMP rows1

rowsdone:
	VZEROUPPER
	RET
