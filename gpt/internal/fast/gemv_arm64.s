#include "textflag.h"

// The one-row products of gemv.go on arm64, in NEON. Both stream the weights once, in the
// order they lie in memory, so their speed is the memory bandwidth.

// func gemvRows4x8(y, x, w *float32, rows, cols, ldw int)
// y[j] += Σ_i x[i]·w[i·ldw+j] for i < rows (a multiple of 4) and j < cols (a multiple of 8):
// four rows of w at a time are scaled by their x (broadcast to V16–V19) and added into y.
TEXT ·gemvRows4x8(SB), NOSPLIT, $0-48
	MOVD y+0(FP), R0
	MOVD x+8(FP), R1
	MOVD w+16(FP), R2
	MOVD rows+24(FP), R3
	MOVD cols+32(FP), R4
	MOVD ldw+40(FP), R5
	LSL $2, R5, R5          // row stride in bytes

rows4:
	CMP $4, R3
	BLT done
	VLD1R.P 4(R1), [V16.S4]
	VLD1R.P 4(R1), [V17.S4]
	VLD1R.P 4(R1), [V18.S4]
	VLD1R.P 4(R1), [V19.S4]
	MOVD R2, R6             // R6–R9: four rows of w
	ADD R5, R6, R7
	ADD R5, R7, R8
	ADD R5, R8, R9
	MOVD R0, R10            // y, eight columns at a time
	MOVD R4, R11            // columns left

cols8:
	CBZ R11, next
	VLD1 (R10), [V0.S4, V1.S4]
	VLD1.P 32(R6), [V2.S4, V3.S4]
	VLD1.P 32(R7), [V4.S4, V5.S4]
	VLD1.P 32(R8), [V6.S4, V7.S4]
	VLD1.P 32(R9), [V8.S4, V9.S4]
	VFMLA V2.S4, V16.S4, V0.S4
	VFMLA V3.S4, V16.S4, V1.S4
	VFMLA V4.S4, V17.S4, V0.S4
	VFMLA V5.S4, V17.S4, V1.S4
	VFMLA V6.S4, V18.S4, V0.S4
	VFMLA V7.S4, V18.S4, V1.S4
	VFMLA V8.S4, V19.S4, V0.S4
	VFMLA V9.S4, V19.S4, V1.S4
	VST1.P [V0.S4, V1.S4], 32(R10)
	SUB $8, R11, R11
	B cols8

next:
	ADD R5<<2, R2, R2
	SUB $4, R3, R3
	B rows4

done:
	RET

// func gemvDot4x8(y, x, w *float32, rows, cols, ldw int)
// y[i] = Σ_j w[i·ldw+j]·x[j] for i < rows (a multiple of 4) and j < cols (a multiple of 8):
// four dot products at a time against x, each in two accumulators (row r in V2r, V2r+1).
TEXT ·gemvDot4x8(SB), NOSPLIT, $0-48
	MOVD y+0(FP), R0
	MOVD x+8(FP), R1
	MOVD w+16(FP), R2
	MOVD rows+24(FP), R3
	MOVD cols+32(FP), R4
	MOVD ldw+40(FP), R5
	LSL $2, R5, R5
	FMOVS $1.0, F30
	VDUP V30.S[0], V30.S4   // ones: a fused multiply-add by V30 is an exact add

dots4:
	CMP $4, R3
	BLT dotsdone
	MOVD R2, R6
	ADD R5, R6, R7
	ADD R5, R7, R8
	ADD R5, R8, R9
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	MOVD R1, R10
	MOVD R4, R11

dotcols:
	CBZ R11, dotsum
	VLD1.P 32(R10), [V16.S4, V17.S4]
	VLD1.P 32(R6), [V18.S4, V19.S4]
	VLD1.P 32(R7), [V20.S4, V21.S4]
	VLD1.P 32(R8), [V22.S4, V23.S4]
	VLD1.P 32(R9), [V24.S4, V25.S4]
	VFMLA V18.S4, V16.S4, V0.S4
	VFMLA V19.S4, V17.S4, V1.S4
	VFMLA V20.S4, V16.S4, V2.S4
	VFMLA V21.S4, V17.S4, V3.S4
	VFMLA V22.S4, V16.S4, V4.S4
	VFMLA V23.S4, V17.S4, V5.S4
	VFMLA V24.S4, V16.S4, V6.S4
	VFMLA V25.S4, V17.S4, V7.S4
	SUB $8, R11, R11
	B dotcols

dotsum:
	// Each row's two accumulators into one, then its four lanes into y[i].
	VFMLA V1.S4, V30.S4, V0.S4      // row 0: V0 += V1
	VMOV V0.S[1], V26.S[0]
	VMOV V0.S[2], V27.S[0]
	VMOV V0.S[3], V28.S[0]
	FADDS F26, F0, F0
	FADDS F27, F0, F0
	FADDS F28, F0, F0
	FMOVS.P F0, 4(R0)
	VFMLA V3.S4, V30.S4, V2.S4      // row 1: V2 += V3
	VMOV V2.S[1], V26.S[0]
	VMOV V2.S[2], V27.S[0]
	VMOV V2.S[3], V28.S[0]
	FADDS F26, F2, F2
	FADDS F27, F2, F2
	FADDS F28, F2, F2
	FMOVS.P F2, 4(R0)
	VFMLA V5.S4, V30.S4, V4.S4      // row 2: V4 += V5
	VMOV V4.S[1], V26.S[0]
	VMOV V4.S[2], V27.S[0]
	VMOV V4.S[3], V28.S[0]
	FADDS F26, F4, F4
	FADDS F27, F4, F4
	FADDS F28, F4, F4
	FMOVS.P F4, 4(R0)
	VFMLA V7.S4, V30.S4, V6.S4      // row 3: V6 += V7
	VMOV V6.S[1], V26.S[0]
	VMOV V6.S[2], V27.S[0]
	VMOV V6.S[3], V28.S[0]
	FADDS F26, F6, F6
	FADDS F27, F6, F6
	FADDS F28, F6, F6
	FMOVS.P F6, 4(R0)
	ADD R5<<2, R2, R2
	SUB $4, R3, R3
	B dots4

dotsdone:
	RET
