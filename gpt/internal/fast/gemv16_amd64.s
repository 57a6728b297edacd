#include "textflag.h"
#include "dotsum_amd64.h"

// The one-row products with bfloat16 weights on AVX2 (gemv16.go; with AVX-512 BF16,
// gemv16dp_amd64.s). A bfloat16 is the top half of a float32, so widening one is a
// zero-extension to 32 bits (VPMOVZXWD) and a shift left by 16 (VPSLLD): the weights cross
// the memory bus at 2 bytes each and become float32 in registers, where they are multiplied
// and accumulated in float32 (VFMADD231PS).

// FOURROWS16 points AX, BX, CX and DX at four consecutive rows of w, from R8 (row stride R11
// bytes).
#define FOURROWS16 \
	MOVQ R8, AX; \
	LEAQ (R8)(R11*1), BX; \
	LEAQ (R8)(R11*2), CX; \
	LEAQ (BX)(R11*2), DX

// WIDEN8 loads eight bf16 at off(row)(R12*2) into reg as float32 (AVX2).
#define WIDEN8(off, row, reg) \
	VPMOVZXWD off(row)(R12*2), reg; \
	VPSLLD $16, reg, reg

// ROW16 adds a row's 16 weights, the halves at a0 and a1 (widened into t0 and t1), times
// xr into acc0 and acc1.
#define ROW16(a0, a1, xr, t0, t1, acc0, acc1) \
	VPMOVZXWD a0, t0; \
	VPMOVZXWD a1, t1; \
	VPSLLD $16, t0, t0; \
	VPSLLD $16, t1, t1; \
	VFMADD231PS t0, xr, acc0; \
	VFMADD231PS t1, xr, acc1

// ROW8 adds row's 8 weights at addr times xr into acc.
#define ROW8(addr, xr, t, acc) \
	VPMOVZXWD addr, t; \
	VPSLLD $16, t, t; \
	VFMADD231PS t, xr, acc

// func gemvRows16AVX2(y, x *float32, w *uint16, rows, cols, ldw int)
// y[j] += Σ_i x[i]·w[i·ldw+j] for i < rows (a multiple of 8) and j < cols (a multiple of 8):
// eight rows of w at a time, 16 columns per pass (then 8), y staying in cache. Eight rows
// rather than four halve the loads and stores of y per weight; the even rows add into Y0
// and Y1, the odd ones into Y2 and Y3, so that no accumulator waits on more than four
// multiply-adds a pass. The rows are 0: (AX), 1: (AX)(R11*1), 2: (AX)(R11*2), 3: (BX),
// 4: (AX)(R11*4), 5: (BX)(R11*2), 6: (CX), 7: (BX)(R11*4), the pointers moving along the
// columns.
TEXT ·gemvRows16AVX2(SB), NOSPLIT, $0-48
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ w+16(FP), R8
	MOVQ rows+24(FP), R9
	MOVQ cols+32(FP), R13
	MOVQ ldw+40(FP), R11
	SHLQ $1, R11            // row stride in bytes
	MOVQ R13, R14
	ANDQ $-16, R14          // columns done 16 at a time

rows8:
	CMPQ R9, $8
	JLT done
	VBROADCASTSS 0(SI), Y8
	VBROADCASTSS 4(SI), Y9
	VBROADCASTSS 8(SI), Y10
	VBROADCASTSS 12(SI), Y11
	VBROADCASTSS 16(SI), Y12
	VBROADCASTSS 20(SI), Y13
	VBROADCASTSS 24(SI), Y14
	VBROADCASTSS 28(SI), Y15
	MOVQ R8, AX
	LEAQ (R8)(R11*2), BX
	ADDQ R11, BX
	LEAQ (BX)(R11*2), CX
	ADDQ R11, CX
	XORQ R12, R12

cols16:
	CMPQ R12, R14
	JGE cols8
	VMOVUPS 0(DI)(R12*4), Y0
	VMOVUPS 32(DI)(R12*4), Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	ROW16((AX), 16(AX), Y8, Y4, Y5, Y0, Y1)
	ROW16((AX)(R11*1), 16(AX)(R11*1), Y9, Y6, Y7, Y2, Y3)
	ROW16((AX)(R11*2), 16(AX)(R11*2), Y10, Y4, Y5, Y0, Y1)
	ROW16((BX), 16(BX), Y11, Y6, Y7, Y2, Y3)
	ROW16((AX)(R11*4), 16(AX)(R11*4), Y12, Y4, Y5, Y0, Y1)
	ROW16((BX)(R11*2), 16(BX)(R11*2), Y13, Y6, Y7, Y2, Y3)
	ROW16((CX), 16(CX), Y14, Y4, Y5, Y0, Y1)
	ROW16((BX)(R11*4), 16(BX)(R11*4), Y15, Y6, Y7, Y2, Y3)
	VADDPS Y2, Y0, Y0
	VADDPS Y3, Y1, Y1
	VMOVUPS Y0, 0(DI)(R12*4)
	VMOVUPS Y1, 32(DI)(R12*4)
	ADDQ $32, AX
	ADDQ $32, BX
	ADDQ $32, CX
	ADDQ $16, R12
	JMP cols16

cols8:
	CMPQ R12, R13
	JGE next
	VMOVUPS (DI)(R12*4), Y0
	VXORPS Y2, Y2, Y2
	ROW8((AX), Y8, Y4, Y0)
	ROW8((AX)(R11*1), Y9, Y6, Y2)
	ROW8((AX)(R11*2), Y10, Y4, Y0)
	ROW8((BX), Y11, Y6, Y2)
	ROW8((AX)(R11*4), Y12, Y4, Y0)
	ROW8((BX)(R11*2), Y13, Y6, Y2)
	ROW8((CX), Y14, Y4, Y0)
	ROW8((BX)(R11*4), Y15, Y6, Y2)
	VADDPS Y2, Y0, Y0
	VMOVUPS Y0, (DI)(R12*4)
	ADDQ $16, AX
	ADDQ $16, BX
	ADDQ $16, CX
	ADDQ $8, R12
	JMP cols8

next:
	LEAQ (R8)(R11*8), R8
	ADDQ $32, SI
	SUBQ $8, R9
	JMP rows8

done:
	VZEROUPPER
	RET

// func gemvDot16AVX2(y, x *float32, w *uint16, rows, cols, ldw int)
// y[i] = Σ_j w[i·ldw+j]·x[j] for i < rows (a multiple of 4) and j < cols (a multiple of 8):
// four dot products at a time against x, which stays in cache.
TEXT ·gemvDot16AVX2(SB), NOSPLIT, $0-48
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ w+16(FP), R8
	MOVQ rows+24(FP), R9
	MOVQ cols+32(FP), R13
	MOVQ ldw+40(FP), R11
	SHLQ $1, R11

dots4:
	CMPQ R9, $4
	JLT dotsdone
	FOURROWS16
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ R12, R12

dotcols:
	CMPQ R12, R13
	JGE dotsum
	VMOVUPS (SI)(R12*4), Y4
	WIDEN8(0, AX, Y5)
	WIDEN8(0, BX, Y6)
	WIDEN8(0, CX, Y7)
	WIDEN8(0, DX, Y8)
	VFMADD231PS Y5, Y4, Y0
	VFMADD231PS Y6, Y4, Y1
	VFMADD231PS Y7, Y4, Y2
	VFMADD231PS Y8, Y4, Y3
	ADDQ $8, R12
	JMP dotcols

dotsum:
	// Sum each accumulator's eight lanes: y[0..3] = the four dot products.
	SUM4
	ADDQ $16, DI
	LEAQ (R8)(R11*4), R8
	SUBQ $4, R9
	JMP dots4

dotsdone:
	VZEROUPPER
	RET
