#include "textflag.h"
#include "dotsum_amd64.h"

// The one-row products with bfloat16 weights on CPUs with AVX-512 BF16 (gemv16.go). The
// widening kernels (gemv16_amd64.s) spend three instructions on every 16 weights — widen,
// shift, multiply-add; VDPBF16PS multiplies 32 bfloat16 weights by 32 bfloat16 activations
// in pairs and adds each pair's sum to one of 16 float32 lanes: one instruction. The
// activations are rounded to bfloat16 first (xb), as the many-row products do; in a BF16
// model they are bfloat16 values already. Go's assembler has no mnemonic for VDPBF16PS:
// each is spelled in bytes, register to register, with the instruction in its comment.

// Dot products (the output layer): pairs of consecutive columns of one row of w with the
// same pair of xb, so the pairs are the memory's own and nothing moves.

// func gemvDot16AVX512BF16(y *float32, xb, w *uint16, rows, cols, ldw int)
// y[i] = Σ_j w[i·ldw+j]·xb[j] for i < rows (a multiple of 4) and j < cols (a multiple of 32):
// four rows at a time, 64 columns per pass in eight accumulators (Z0–Z3 and Z16–Z19, so
// that each waits on its own previous sum only every other instruction).
TEXT ·gemvDot16AVX512BF16(SB), NOSPLIT, $0-48
	MOVQ y+0(FP), DI
	MOVQ xb+8(FP), SI
	MOVQ w+16(FP), R8
	MOVQ rows+24(FP), R9
	MOVQ cols+32(FP), R13
	MOVQ ldw+40(FP), R11
	SHLQ $1, R11            // row stride in bytes
	MOVQ R13, R14
	ANDQ $-64, R14          // columns done 64 at a time

dprows4:
	CMPQ R9, $4
	JLT dpdone
	MOVQ R8, AX
	LEAQ (R8)(R11*1), BX
	LEAQ (R8)(R11*2), CX
	LEAQ (BX)(R11*2), DX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	XORQ R12, R12

dpcols64:
	CMPQ R12, R14
	JGE dpcols32
	VMOVDQU16 0(SI)(R12*2), Z12
	VMOVDQU16 64(SI)(R12*2), Z13
	VMOVDQU16 0(AX)(R12*2), Z4
	VMOVDQU16 0(BX)(R12*2), Z5
	VMOVDQU16 0(CX)(R12*2), Z6
	VMOVDQU16 0(DX)(R12*2), Z7
	VMOVDQU16 64(AX)(R12*2), Z8
	VMOVDQU16 64(BX)(R12*2), Z9
	VMOVDQU16 64(CX)(R12*2), Z10
	VMOVDQU16 64(DX)(R12*2), Z11
	BYTE $0x62; BYTE $0xd2; BYTE $0x5e; BYTE $0x48; BYTE $0x52; BYTE $0xc4 // VDPBF16PS Z12, Z4, Z0
	BYTE $0x62; BYTE $0xd2; BYTE $0x56; BYTE $0x48; BYTE $0x52; BYTE $0xcc // VDPBF16PS Z12, Z5, Z1
	BYTE $0x62; BYTE $0xd2; BYTE $0x4e; BYTE $0x48; BYTE $0x52; BYTE $0xd4 // VDPBF16PS Z12, Z6, Z2
	BYTE $0x62; BYTE $0xd2; BYTE $0x46; BYTE $0x48; BYTE $0x52; BYTE $0xdc // VDPBF16PS Z12, Z7, Z3
	BYTE $0x62; BYTE $0xc2; BYTE $0x3e; BYTE $0x48; BYTE $0x52; BYTE $0xc5 // VDPBF16PS Z13, Z8, Z16
	BYTE $0x62; BYTE $0xc2; BYTE $0x36; BYTE $0x48; BYTE $0x52; BYTE $0xcd // VDPBF16PS Z13, Z9, Z17
	BYTE $0x62; BYTE $0xc2; BYTE $0x2e; BYTE $0x48; BYTE $0x52; BYTE $0xd5 // VDPBF16PS Z13, Z10, Z18
	BYTE $0x62; BYTE $0xc2; BYTE $0x26; BYTE $0x48; BYTE $0x52; BYTE $0xdd // VDPBF16PS Z13, Z11, Z19
	ADDQ $64, R12
	JMP dpcols64

dpcols32:
	CMPQ R12, R13
	JGE dpsum
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
	JMP dpcols32

dpsum:
	// Add the second accumulators into the first, fold each to 256 bits, then sum the
	// four rows' lanes as gemvDot16AVX2 does: y[0..3].
	VADDPS Z16, Z0, Z0
	VADDPS Z17, Z1, Z1
	VADDPS Z18, Z2, Z2
	VADDPS Z19, Z3, Z3
	VEXTRACTF64X4 $1, Z0, Y4
	VADDPS Y4, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y5
	VADDPS Y5, Y1, Y1
	VEXTRACTF64X4 $1, Z2, Y6
	VADDPS Y6, Y2, Y2
	VEXTRACTF64X4 $1, Z3, Y7
	VADDPS Y7, Y3, Y3
	SUM4
	ADDQ $16, DI
	LEAQ (R8)(R11*4), R8
	SUBQ $4, R9
	JMP dprows4

dpdone:
	VZEROUPPER
	RET

// Sums of rows (the Conv1D products, and attention's weighted sum of values: y += Σ_i
// xb[i]·w[i,:]): here a pair is two rows at one column. VPUNPCKLWD and VPUNPCKHWD
// interleave two rows' 32 weights into such pairs, but within each 128-bit lane: the low
// half gets columns 0–3, 8–11, 16–19, 24–27 of the 32, the high half the other sixteen —
// the even and the odd lanes of four columns. So each block of 32 columns of y is kept in
// that order while the rows run (its lanes gathered on entry with VSHUFF32X4, put back on
// the way out), and the pairs of xb are broadcast as they lie in memory: xb[i] in the low
// 16 bits, xb[i+1] above.

// LANES32 runs body over y's blocks of 32 columns (cols of them, a multiple of 32, at DI),
// each block's halves in Z0 and Z1 and stored back from Z0 and Z1; R12 is the column.
#define LANES32(body, loop, end) \
	XORQ R12, R12; \
loop: \
	CMPQ R12, R13; \
	JGE end; \
	VMOVUPS 0(DI)(R12*4), Z0; \
	VMOVUPS 64(DI)(R12*4), Z1; \
	body; \
	VMOVUPS Z0, 0(DI)(R12*4); \
	VMOVUPS Z1, 64(DI)(R12*4); \
	ADDQ $32, R12; \
	JMP loop; \
end:

// GATHER puts a block's even lanes of four columns in Z0 and its odd ones in Z1; SCATTER
// undoes it (lanes 0, 2, 4, 6 of the 32 columns from Z0, 1, 3, 5, 7 from Z1).
#define GATHER \
	VSHUFF32X4 $0x88, Z1, Z0, Z2; \
	VSHUFF32X4 $0xdd, Z1, Z0, Z1; \
	VMOVAPS Z2, Z0
#define SCATTER \
	VSHUFF32X4 $0x44, Z1, Z0, Z2; \
	VSHUFF32X4 $0xee, Z1, Z0, Z3; \
	VSHUFF32X4 $0xd8, Z2, Z2, Z0; \
	VSHUFF32X4 $0xd8, Z3, Z3, Z1

// func gemvRows16AVX512BF16(y *float32, xb, w *uint16, rows, cols, ldw int)
// y[j] += Σ_i xb[i]·w[i·ldw+j] for i < rows (a multiple of 8) and j < cols (a multiple of
// 32): eight rows (four pairs) at a time, 32 columns per pass, y staying in cache. Eight
// rows rather than four halve the loads and stores of y per weight read; two accumulators
// per half-block (Z0 and Z2, Z1 and Z3) halve the chains of dependent additions.
TEXT ·gemvRows16AVX512BF16(SB), NOSPLIT, $0-48
	MOVQ y+0(FP), DI
	MOVQ xb+8(FP), SI
	MOVQ w+16(FP), R8
	MOVQ rows+24(FP), R9
	MOVQ cols+32(FP), R13
	MOVQ ldw+40(FP), R11
	SHLQ $1, R11            // row stride in bytes
	LANES32(GATHER, egather, egatherdone)

erows8:
	CMPQ R9, $8
	JLT edone
	VPBROADCASTD 0(SI), Z12
	VPBROADCASTD 4(SI), Z13
	VPBROADCASTD 8(SI), Z22
	VPBROADCASTD 12(SI), Z23
	MOVQ R8, AX             // rows 0, 1, 2, 4: (AX), (AX)(R11*1), (AX)(R11*2), (AX)(R11*4)
	LEAQ (R8)(R11*2), BX
	ADDQ R11, BX            // rows 3, 5, 7: (BX), (BX)(R11*2), (BX)(R11*4)
	LEAQ (BX)(R11*2), CX
	ADDQ R11, CX            // row 6: (CX)
	XORQ R12, R12

ecols32:
	CMPQ R12, R13
	JGE enext
	VMOVUPS 0(DI)(R12*4), Z0
	VMOVUPS 64(DI)(R12*4), Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VMOVDQU16 (AX), Z4
	VMOVDQU16 (AX)(R11*1), Z5
	VMOVDQU16 (AX)(R11*2), Z6
	VMOVDQU16 (BX), Z7
	VMOVDQU16 (AX)(R11*4), Z8
	VMOVDQU16 (BX)(R11*2), Z9
	VMOVDQU16 (CX), Z10
	VMOVDQU16 (BX)(R11*4), Z11
	VPUNPCKLWD Z5, Z4, Z14
	VPUNPCKHWD Z5, Z4, Z15
	VPUNPCKLWD Z7, Z6, Z16
	VPUNPCKHWD Z7, Z6, Z17
	VPUNPCKLWD Z9, Z8, Z18
	VPUNPCKHWD Z9, Z8, Z19
	VPUNPCKLWD Z11, Z10, Z20
	VPUNPCKHWD Z11, Z10, Z21
	BYTE $0x62; BYTE $0xd2; BYTE $0x0e; BYTE $0x48; BYTE $0x52; BYTE $0xc4 // VDPBF16PS Z12, Z14, Z0
	BYTE $0x62; BYTE $0xd2; BYTE $0x06; BYTE $0x48; BYTE $0x52; BYTE $0xcc // VDPBF16PS Z12, Z15, Z1
	BYTE $0x62; BYTE $0xb2; BYTE $0x6e; BYTE $0x40; BYTE $0x52; BYTE $0xd6 // VDPBF16PS Z22, Z18, Z2
	BYTE $0x62; BYTE $0xb2; BYTE $0x66; BYTE $0x40; BYTE $0x52; BYTE $0xde // VDPBF16PS Z22, Z19, Z3
	BYTE $0x62; BYTE $0xd2; BYTE $0x7e; BYTE $0x40; BYTE $0x52; BYTE $0xc5 // VDPBF16PS Z13, Z16, Z0
	BYTE $0x62; BYTE $0xd2; BYTE $0x76; BYTE $0x40; BYTE $0x52; BYTE $0xcd // VDPBF16PS Z13, Z17, Z1
	BYTE $0x62; BYTE $0xb2; BYTE $0x5e; BYTE $0x40; BYTE $0x52; BYTE $0xd7 // VDPBF16PS Z23, Z20, Z2
	BYTE $0x62; BYTE $0xb2; BYTE $0x56; BYTE $0x40; BYTE $0x52; BYTE $0xdf // VDPBF16PS Z23, Z21, Z3
	VADDPS Z2, Z0, Z0
	VADDPS Z3, Z1, Z1
	VMOVUPS Z0, 0(DI)(R12*4)
	VMOVUPS Z1, 64(DI)(R12*4)
	ADDQ $64, AX
	ADDQ $64, BX
	ADDQ $64, CX
	ADDQ $32, R12
	JMP ecols32

enext:
	LEAQ (R8)(R11*8), R8
	ADDQ $16, SI
	SUBQ $8, R9
	JMP erows8

edone:
	LANES32(SCATTER, escatter, escatterdone)
	VZEROUPPER
	RET
