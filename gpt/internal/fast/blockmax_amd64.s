#include "textflag.h"

// func blockMaxAVX2(dst, x *float32, blocks int) (bad uint32)
// dst[b] = the largest of x[64b … 64b+63] for b < blocks: eight registers of x folded by
// VMAXPS, then across the lanes. Beside it the x-x of every element are ORed together:
// +0 for a finite x, a NaN for NaN and ±Inf, so bad (their bits) is 0 when all are finite.
TEXT ·blockMaxAVX2(SB), NOSPLIT, $0-28
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ blocks+16(FP), CX
	VXORPS Y15, Y15, Y15

loop:
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VMOVUPS 128(SI), Y4
	VMOVUPS 160(SI), Y5
	VMOVUPS 192(SI), Y6
	VMOVUPS 224(SI), Y7

	VSUBPS Y0, Y0, Y8
	VSUBPS Y1, Y1, Y9
	VSUBPS Y2, Y2, Y10
	VSUBPS Y3, Y3, Y11
	VORPS Y9, Y8, Y8
	VORPS Y11, Y10, Y10
	VSUBPS Y4, Y4, Y9
	VSUBPS Y5, Y5, Y11
	VORPS Y9, Y8, Y8
	VORPS Y11, Y10, Y10
	VSUBPS Y6, Y6, Y9
	VSUBPS Y7, Y7, Y11
	VORPS Y9, Y8, Y8
	VORPS Y11, Y10, Y10
	VORPS Y10, Y8, Y8
	VORPS Y8, Y15, Y15

	VMAXPS Y1, Y0, Y0
	VMAXPS Y3, Y2, Y2
	VMAXPS Y5, Y4, Y4
	VMAXPS Y7, Y6, Y6
	VMAXPS Y2, Y0, Y0
	VMAXPS Y6, Y4, Y4
	VMAXPS Y4, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VMAXPS X1, X0, X0
	VMOVSS X0, (DI)

	ADDQ $256, SI
	ADDQ $4, DI
	DECQ CX
	JNE loop

	VEXTRACTF128 $1, Y15, X0
	VORPS X0, X15, X0
	VPERMILPS $0x4e, X0, X1
	VORPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VORPS X1, X0, X0
	VMOVSS X0, bad+24(FP)
	VZEROUPPER
	RET
