#include "textflag.h"

// func widenPanel16(kc int, b *uint16, ldb int, dst *float32)
// dst[p*16+j] = float32(b[p*ldb+j]) for p < kc, j < 16: a panel of bfloat16 weights packed
// as float32 for the micro-kernel (zero-extend each to 32 bits, shift left by 16).
TEXT ·widenPanel16(SB), NOSPLIT, $0-32
	MOVQ kc+0(FP), CX
	MOVQ b+8(FP), SI
	MOVQ ldb+16(FP), R8
	MOVQ dst+24(FP), DI
	SHLQ $1, R8

loop:
	TESTQ CX, CX
	JE done
	VPMOVZXWD 0(SI), Y0
	VPMOVZXWD 16(SI), Y1
	VPSLLD $16, Y0, Y0
	VPSLLD $16, Y1, Y1
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	ADDQ R8, SI
	ADDQ $64, DI
	DECQ CX
	JMP loop

done:
	VZEROUPPER
	RET
