#include "textflag.h"
#include "dotsum_amd64.h"
#include "attention_decode_amd64.h"

// The walks of attention_decode_amd64.s on AVX-512 (attention_decode.go), sixteen float32
// channels a register: half the instructions for the same rows, where the AVX2 walk over
// bfloat16 rows ran at the rate of its widening instructions rather than the memory's. The
// bfloat16 keys take VDPBF16PS, 32 channels of a row against the query rounded to bfloat16
// (qb) in one instruction; the bfloat16 values are widened as in the AVX2 walk, a whole
// register at a time. The registers are those of attention_decode_amd64.s; the heads have
// a multiple of 32 channels.

// FOLD4 adds the upper half of each of Z0–Z3 into its lower half (Y0–Y3), for SUM4.
#define FOLD4 \
	VEXTRACTF64X4 $1, Z0, Y4; \
	VADDPS Y4, Y0, Y0; \
	VEXTRACTF64X4 $1, Z1, Y5; \
	VADDPS Y5, Y1, Y1; \
	VEXTRACTF64X4 $1, Z2, Y6; \
	VADDPS Y6, Y2, Y2; \
	VEXTRACTF64X4 $1, Z3, Y7; \
	VADDPS Y7, Y3, Y3

// FOLDSUM1 stores at (DI) the sum of the sixteen lanes of Z0. It uses X1 and Y4.
#define FOLDSUM1 \
	VEXTRACTF64X4 $1, Z0, Y4; \
	VADDPS Y4, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPS X1, X0, X0; \
	VHADDPS X0, X0, X0; \
	VHADDPS X0, X0, X0; \
	VMOVSS X0, (DI)

// func headDotsAVX512(s, q, k *float32, rows, heads, hs, ld, lds int)
// headDotsAVX2 sixteen channels at a time.
TEXT ·headDotsAVX512(SB), NOSPLIT, $8-64
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
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3

chan4:
	VMOVUPS (SI)(R12*4), Z8
	VFMADD231PS (AX)(R12*4), Z8, Z0
	VFMADD231PS (BX)(R12*4), Z8, Z1
	VFMADD231PS (CX)(R12*4), Z8, Z2
	VFMADD231PS (DX)(R12*4), Z8, Z3
	ADDQ $16, R12
	CMPQ R12, R13
	JLT chan4
	FOLD4
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
	VPXORD Z0, Z0, Z0

chan1:
	VMOVUPS (SI)(R12*4), Z8
	VFMADD231PS (R8)(R12*4), Z8, Z0
	ADDQ $16, R12
	CMPQ R12, R13
	JLT chan1
	FOLDSUM1
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

// func headDots16AVX512BF16(s *float32, qb, k *uint16, rows, heads, hs, ld, lds int)
// headDots16AVX2 on VDPBF16PS, with the query rounded to bfloat16 (qb), 32 channels at a
// time. (Go's assembler has no mnemonic for VDPBF16PS; it is spelled in bytes, as in
// gemv16dp_amd64.s.)
TEXT ·headDots16AVX512BF16(SB), NOSPLIT, $8-64
	MOVQ s+0(FP), R15
	MOVQ qb+8(FP), SI
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
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3

chan4:
	VMOVDQU16 (SI)(R12*2), Z12
	VMOVDQU16 (AX)(R12*2), Z4
	VMOVDQU16 (BX)(R12*2), Z5
	VMOVDQU16 (CX)(R12*2), Z6
	VMOVDQU16 (DX)(R12*2), Z7
	BYTE $0x62; BYTE $0xd2; BYTE $0x5e; BYTE $0x48; BYTE $0x52; BYTE $0xc4 // VDPBF16PS Z12, Z4, Z0
	BYTE $0x62; BYTE $0xd2; BYTE $0x56; BYTE $0x48; BYTE $0x52; BYTE $0xcc // VDPBF16PS Z12, Z5, Z1
	BYTE $0x62; BYTE $0xd2; BYTE $0x4e; BYTE $0x48; BYTE $0x52; BYTE $0xd4 // VDPBF16PS Z12, Z6, Z2
	BYTE $0x62; BYTE $0xd2; BYTE $0x46; BYTE $0x48; BYTE $0x52; BYTE $0xdc // VDPBF16PS Z12, Z7, Z3
	ADDQ $32, R12
	CMPQ R12, R13
	JLT chan4
	FOLD4
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
	VPXORD Z0, Z0, Z0

chan1:
	VMOVDQU16 (SI)(R12*2), Z12
	VMOVDQU16 (R8)(R12*2), Z4
	BYTE $0x62; BYTE $0xd2; BYTE $0x5e; BYTE $0x48; BYTE $0x52; BYTE $0xc4 // VDPBF16PS Z12, Z4, Z0
	ADDQ $32, R12
	CMPQ R12, R13
	JLT chan1
	FOLDSUM1
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

// func headRowsAVX512(out, p, v *float32, rows, heads, hs, ld, lds int)
// headRowsAVX2 sixteen channels at a time.
TEXT ·headRowsAVX512(SB), NOSPLIT, $8-64
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
	VBROADCASTSS 0(SI), Z12
	VBROADCASTSS 4(SI), Z13
	VBROADCASTSS 8(SI), Z14
	VBROADCASTSS 12(SI), Z15

chan4:
	VMOVUPS (DI)(R12*4), Z0
	VMULPS (CX)(R12*4), Z14, Z1
	VFMADD231PS (AX)(R12*4), Z12, Z0
	VFMADD231PS (DX)(R12*4), Z15, Z1
	VFMADD231PS (BX)(R12*4), Z13, Z0
	VADDPS Z1, Z0, Z0
	VMOVUPS Z0, (DI)(R12*4)
	ADDQ $16, R12
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
	VBROADCASTSS 0(SI), Z12

chan1:
	VMOVUPS (DI)(R12*4), Z0
	VFMADD231PS (R8)(R12*4), Z12, Z0
	VMOVUPS Z0, (DI)(R12*4)
	ADDQ $16, R12
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

// WIDEN16 loads the sixteen bfloat16 at (row)(R12*2) into reg as float32.
#define WIDEN16(row, reg) \
	VPMOVZXWD (row)(R12*2), reg; \
	VPSLLD $16, reg, reg

// func headRows16AVX512(out, p *float32, v *uint16, rows, heads, hs, ld, lds int)
// headRows16AVX2 sixteen channels at a time.
TEXT ·headRows16AVX512(SB), NOSPLIT, $8-64
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
	VBROADCASTSS 0(SI), Z12
	VBROADCASTSS 4(SI), Z13
	VBROADCASTSS 8(SI), Z14
	VBROADCASTSS 12(SI), Z15

chan4:
	VMOVUPS (DI)(R12*4), Z0
	WIDEN16(AX, Z4)
	WIDEN16(BX, Z5)
	WIDEN16(CX, Z6)
	WIDEN16(DX, Z7)
	VMULPS Z6, Z14, Z1
	VFMADD231PS Z4, Z12, Z0
	VFMADD231PS Z7, Z15, Z1
	VFMADD231PS Z5, Z13, Z0
	VADDPS Z1, Z0, Z0
	VMOVUPS Z0, (DI)(R12*4)
	ADDQ $16, R12
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
	VBROADCASTSS 0(SI), Z12

chan1:
	VMOVUPS (DI)(R12*4), Z0
	WIDEN16(R8, Z4)
	VFMADD231PS Z4, Z12, Z0
	VMOVUPS Z0, (DI)(R12*4)
	ADDQ $16, R12
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
