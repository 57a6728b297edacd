#include "textflag.h"

// The few-rows product with bfloat16 weights on VDPBF16PS (fewrows.go): six rows of xb (x
// rounded to bfloat16) against 32 columns of w, read from w's rows two at a time. A pair
// for VDPBF16PS is two rows of w at one column: VPUNPCKLWD and VPUNPCKHWD interleave two
// rows' 32 weights into pairs within each 128-bit lane, the low half getting columns 0–3,
// 8–11, 16–19, 24–27 and the high half the others (as in gemv16dp_amd64.s), so each row's
// two accumulators hold its 32 sums in that order until they are put back at the end. The
// pairs of xb are broadcast as they lie in memory: xb[p] in the low 16 bits, xb[p+1] above.
// Go's assembler has no mnemonic for VDPBF16PS: each is spelled in bytes, register to
// register, with the instruction in its comment.

// func kernRows6x32DP(kp int, xb *uint16, ldx int, w *uint16, ldw int, c *float32, ldc int, bias *float32)
// C[i][j] = bias[j] + Σ_p xb[i·ldx+p]·w[p·ldw+j] for i < 6, j < 32, p < 2·kp, stored
// without reading C (row stride ldc); the accumulators Z0–Z11 (two a row), the weights'
// pairs Z14 and Z15, the rows' pairs of xb Z16–Z21. Each step prefetches its two rows of w
// 256 bytes on, a later panel's (as fewrows_amd64.s does).
TEXT ·kernRows6x32DP(SB), NOSPLIT, $0-64
	MOVQ kp+0(FP), CX
	MOVQ xb+8(FP), SI
	MOVQ ldx+16(FP), R9
	MOVQ w+24(FP), DI
	MOVQ ldw+32(FP), R11
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R8
	MOVQ bias+56(FP), R12
	SHLQ $1, R9             // row stride of xb in bytes
	SHLQ $1, R11            // row stride of w in bytes
	SHLQ $2, R8
	LEAQ (SI)(R9*2), R10
	ADDQ R9, R10            // R10: row 3 of xb
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	TESTQ CX, CX
	JE store

loop:
	PREFETCHT0 256(DI)
	PREFETCHT0 256(DI)(R11*1)
	VMOVDQU16 (DI), Z12
	VMOVDQU16 (DI)(R11*1), Z13
	VPUNPCKLWD Z13, Z12, Z14
	VPUNPCKHWD Z13, Z12, Z15
	VPBROADCASTD (SI), Z16
	VPBROADCASTD (SI)(R9*1), Z17
	VPBROADCASTD (SI)(R9*2), Z18
	VPBROADCASTD (R10), Z19
	VPBROADCASTD (R10)(R9*1), Z20
	VPBROADCASTD (R10)(R9*2), Z21
	BYTE $0x62; BYTE $0xb2; BYTE $0x0e; BYTE $0x48; BYTE $0x52; BYTE $0xc0 // VDPBF16PS Z16, Z14, Z0
	BYTE $0x62; BYTE $0xb2; BYTE $0x06; BYTE $0x48; BYTE $0x52; BYTE $0xc8 // VDPBF16PS Z16, Z15, Z1
	BYTE $0x62; BYTE $0xb2; BYTE $0x0e; BYTE $0x48; BYTE $0x52; BYTE $0xd1 // VDPBF16PS Z17, Z14, Z2
	BYTE $0x62; BYTE $0xb2; BYTE $0x06; BYTE $0x48; BYTE $0x52; BYTE $0xd9 // VDPBF16PS Z17, Z15, Z3
	BYTE $0x62; BYTE $0xb2; BYTE $0x0e; BYTE $0x48; BYTE $0x52; BYTE $0xe2 // VDPBF16PS Z18, Z14, Z4
	BYTE $0x62; BYTE $0xb2; BYTE $0x06; BYTE $0x48; BYTE $0x52; BYTE $0xea // VDPBF16PS Z18, Z15, Z5
	BYTE $0x62; BYTE $0xb2; BYTE $0x0e; BYTE $0x48; BYTE $0x52; BYTE $0xf3 // VDPBF16PS Z19, Z14, Z6
	BYTE $0x62; BYTE $0xb2; BYTE $0x06; BYTE $0x48; BYTE $0x52; BYTE $0xfb // VDPBF16PS Z19, Z15, Z7
	BYTE $0x62; BYTE $0x32; BYTE $0x0e; BYTE $0x48; BYTE $0x52; BYTE $0xc4 // VDPBF16PS Z20, Z14, Z8
	BYTE $0x62; BYTE $0x32; BYTE $0x06; BYTE $0x48; BYTE $0x52; BYTE $0xcc // VDPBF16PS Z20, Z15, Z9
	BYTE $0x62; BYTE $0x32; BYTE $0x0e; BYTE $0x48; BYTE $0x52; BYTE $0xd5 // VDPBF16PS Z21, Z14, Z10
	BYTE $0x62; BYTE $0x32; BYTE $0x06; BYTE $0x48; BYTE $0x52; BYTE $0xdd // VDPBF16PS Z21, Z15, Z11
	LEAQ (DI)(R11*2), DI
	ADDQ $4, SI
	ADDQ $4, R10
	DECQ CX
	JNE loop

store:
	VMOVUPS (R12), Z12
	VMOVUPS 64(R12), Z13
	VSHUFF32X4 $0x44, Z1, Z0, Z22
	VSHUFF32X4 $0xee, Z1, Z0, Z23
	VSHUFF32X4 $0xd8, Z22, Z22, Z0
	VSHUFF32X4 $0xd8, Z23, Z23, Z1
	VADDPS Z12, Z0, Z0
	VADDPS Z13, Z1, Z1
	VMOVUPS Z0, (DX)
	VMOVUPS Z1, 64(DX)
	ADDQ R8, DX
	VSHUFF32X4 $0x44, Z3, Z2, Z22
	VSHUFF32X4 $0xee, Z3, Z2, Z23
	VSHUFF32X4 $0xd8, Z22, Z22, Z2
	VSHUFF32X4 $0xd8, Z23, Z23, Z3
	VADDPS Z12, Z2, Z2
	VADDPS Z13, Z3, Z3
	VMOVUPS Z2, (DX)
	VMOVUPS Z3, 64(DX)
	ADDQ R8, DX
	VSHUFF32X4 $0x44, Z5, Z4, Z22
	VSHUFF32X4 $0xee, Z5, Z4, Z23
	VSHUFF32X4 $0xd8, Z22, Z22, Z4
	VSHUFF32X4 $0xd8, Z23, Z23, Z5
	VADDPS Z12, Z4, Z4
	VADDPS Z13, Z5, Z5
	VMOVUPS Z4, (DX)
	VMOVUPS Z5, 64(DX)
	ADDQ R8, DX
	VSHUFF32X4 $0x44, Z7, Z6, Z22
	VSHUFF32X4 $0xee, Z7, Z6, Z23
	VSHUFF32X4 $0xd8, Z22, Z22, Z6
	VSHUFF32X4 $0xd8, Z23, Z23, Z7
	VADDPS Z12, Z6, Z6
	VADDPS Z13, Z7, Z7
	VMOVUPS Z6, (DX)
	VMOVUPS Z7, 64(DX)
	ADDQ R8, DX
	VSHUFF32X4 $0x44, Z9, Z8, Z22
	VSHUFF32X4 $0xee, Z9, Z8, Z23
	VSHUFF32X4 $0xd8, Z22, Z22, Z8
	VSHUFF32X4 $0xd8, Z23, Z23, Z9
	VADDPS Z12, Z8, Z8
	VADDPS Z13, Z9, Z9
	VMOVUPS Z8, (DX)
	VMOVUPS Z9, 64(DX)
	ADDQ R8, DX
	VSHUFF32X4 $0x44, Z11, Z10, Z22
	VSHUFF32X4 $0xee, Z11, Z10, Z23
	VSHUFF32X4 $0xd8, Z22, Z22, Z10
	VSHUFF32X4 $0xd8, Z23, Z23, Z11
	VADDPS Z12, Z10, Z10
	VADDPS Z13, Z11, Z11
	VMOVUPS Z10, (DX)
	VMOVUPS Z11, 64(DX)
	VZEROUPPER
	RET
