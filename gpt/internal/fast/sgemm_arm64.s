#include "textflag.h"

// The micro-kernel of sgemm.go on arm64, in NEON: a 6×16 tile of C lives in twenty-four
// vector registers (V0–V23, row i in V4i–V4i+3) for all kc steps of the shared dimension.
// Each step loads sixteen values of the packed panel of op(B) (V24–V27), broadcasts each of
// the tile's six values of op(A) to all four lanes of a register (VLD1R), and makes
// twenty-four fused multiply-adds.

// func kern6x16(kc int, a, b, c *float32, ldc int, bias *float32)
// C[i][j] (+)= Σ_p a[p*6+i]·b[p*16+j] for i < 6, j < 16: added to C when bias is nil, else
// stored as the product plus bias[j], C unread.
TEXT ·kern6x16(SB), NOSPLIT, $0-48
	MOVD kc+0(FP), R0
	MOVD a+8(FP), R1
	MOVD b+16(FP), R2
	MOVD c+24(FP), R3
	MOVD ldc+32(FP), R4
	MOVD bias+40(FP), R5
	LSL $2, R4, R4          // row stride in bytes
	MOVD R3, R6             // R6–R11: the six rows of C
	ADD R4, R6, R7
	ADD R4, R7, R8
	ADD R4, R8, R9
	ADD R4, R9, R10
	ADD R4, R10, R11
	CBZ R5, fromc

	// Start every row from the bias.
	VLD1 (R5), [V0.S4, V1.S4, V2.S4, V3.S4]
	VMOV V0.B16, V4.B16
	VMOV V1.B16, V5.B16
	VMOV V2.B16, V6.B16
	VMOV V3.B16, V7.B16
	VMOV V0.B16, V8.B16
	VMOV V1.B16, V9.B16
	VMOV V2.B16, V10.B16
	VMOV V3.B16, V11.B16
	VMOV V0.B16, V12.B16
	VMOV V1.B16, V13.B16
	VMOV V2.B16, V14.B16
	VMOV V3.B16, V15.B16
	VMOV V0.B16, V16.B16
	VMOV V1.B16, V17.B16
	VMOV V2.B16, V18.B16
	VMOV V3.B16, V19.B16
	VMOV V0.B16, V20.B16
	VMOV V1.B16, V21.B16
	VMOV V2.B16, V22.B16
	VMOV V3.B16, V23.B16
	B steps

fromc:
	// Start every row from C.
	VLD1 (R6), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1 (R7), [V4.S4, V5.S4, V6.S4, V7.S4]
	VLD1 (R8), [V8.S4, V9.S4, V10.S4, V11.S4]
	VLD1 (R9), [V12.S4, V13.S4, V14.S4, V15.S4]
	VLD1 (R10), [V16.S4, V17.S4, V18.S4, V19.S4]
	VLD1 (R11), [V20.S4, V21.S4, V22.S4, V23.S4]

steps:
	CBZ R0, store
	VLD1.P 64(R2), [V24.S4, V25.S4, V26.S4, V27.S4]
	VLD1R.P 4(R1), [V28.S4]
	VLD1R.P 4(R1), [V29.S4]
	VLD1R.P 4(R1), [V30.S4]
	VLD1R.P 4(R1), [V31.S4]
	VFMLA V24.S4, V28.S4, V0.S4
	VFMLA V25.S4, V28.S4, V1.S4
	VFMLA V26.S4, V28.S4, V2.S4
	VFMLA V27.S4, V28.S4, V3.S4
	VFMLA V24.S4, V29.S4, V4.S4
	VFMLA V25.S4, V29.S4, V5.S4
	VFMLA V26.S4, V29.S4, V6.S4
	VFMLA V27.S4, V29.S4, V7.S4
	VFMLA V24.S4, V30.S4, V8.S4
	VFMLA V25.S4, V30.S4, V9.S4
	VFMLA V26.S4, V30.S4, V10.S4
	VFMLA V27.S4, V30.S4, V11.S4
	VFMLA V24.S4, V31.S4, V12.S4
	VFMLA V25.S4, V31.S4, V13.S4
	VFMLA V26.S4, V31.S4, V14.S4
	VFMLA V27.S4, V31.S4, V15.S4
	VLD1R.P 4(R1), [V28.S4]
	VLD1R.P 4(R1), [V29.S4]
	VFMLA V24.S4, V28.S4, V16.S4
	VFMLA V25.S4, V28.S4, V17.S4
	VFMLA V26.S4, V28.S4, V18.S4
	VFMLA V27.S4, V28.S4, V19.S4
	VFMLA V24.S4, V29.S4, V20.S4
	VFMLA V25.S4, V29.S4, V21.S4
	VFMLA V26.S4, V29.S4, V22.S4
	VFMLA V27.S4, V29.S4, V23.S4
	SUB $1, R0, R0
	B steps

store:
	VST1 [V0.S4, V1.S4, V2.S4, V3.S4], (R6)
	VST1 [V4.S4, V5.S4, V6.S4, V7.S4], (R7)
	VST1 [V8.S4, V9.S4, V10.S4, V11.S4], (R8)
	VST1 [V12.S4, V13.S4, V14.S4, V15.S4], (R9)
	VST1 [V16.S4, V17.S4, V18.S4, V19.S4], (R10)
	VST1 [V20.S4, V21.S4, V22.S4, V23.S4], (R11)
	RET
