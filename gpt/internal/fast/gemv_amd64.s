#include "textflag.h"
#include "dotsum_amd64.h"

// FOURROWS points AX, BX, CX and DX at four consecutive rows of w, from R8 (row stride R11
// bytes).
#define FOURROWS \
	MOVQ R8, AX; \
	LEAQ (R8)(R11*1), BX; \
	LEAQ (R8)(R11*2), CX; \
	LEAQ (BX)(R11*2), DX

// The one-row products of a cached decode step (gemv.go). Both stream the weights once,
// in the order they lie in memory, so their speed is the memory bandwidth.

// func gemvRows4x8(y, x, w *float32, rows, cols, ldw int)
// y[j] += Σ_i x[i]·w[i·ldw+j] for i < rows (a multiple of 4) and j < cols (a multiple of 8):
// four rows of w at a time are scaled by their x and added into y, which stays in cache.
TEXT ·gemvRows4x8(SB), NOSPLIT, $0-48
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ w+16(FP), R8
	MOVQ rows+24(FP), R9
	MOVQ cols+32(FP), R13
	MOVQ ldw+40(FP), R11
	SHLQ $2, R11            // row stride in bytes
	SHLQ $2, R13            // row length in bytes
	MOVQ R13, R14
	ANDQ $-128, R14         // bytes done 32 columns at a time

rows4:
	CMPQ R9, $4
	JLT done
	VBROADCASTSS 0(SI), Y12
	VBROADCASTSS 4(SI), Y13
	VBROADCASTSS 8(SI), Y14
	VBROADCASTSS 12(SI), Y15
	FOURROWS
	XORQ R12, R12           // byte offset of the column

cols32:
	CMPQ R12, R14
	JGE cols8
	VMOVUPS 0(DI)(R12*1), Y0
	VMOVUPS 32(DI)(R12*1), Y1
	VMOVUPS 64(DI)(R12*1), Y2
	VMOVUPS 96(DI)(R12*1), Y3
	VFMADD231PS 0(AX)(R12*1), Y12, Y0
	VFMADD231PS 32(AX)(R12*1), Y12, Y1
	VFMADD231PS 64(AX)(R12*1), Y12, Y2
	VFMADD231PS 96(AX)(R12*1), Y12, Y3
	VFMADD231PS 0(BX)(R12*1), Y13, Y0
	VFMADD231PS 32(BX)(R12*1), Y13, Y1
	VFMADD231PS 64(BX)(R12*1), Y13, Y2
	VFMADD231PS 96(BX)(R12*1), Y13, Y3
	VFMADD231PS 0(CX)(R12*1), Y14, Y0
	VFMADD231PS 32(CX)(R12*1), Y14, Y1
	VFMADD231PS 64(CX)(R12*1), Y14, Y2
	VFMADD231PS 96(CX)(R12*1), Y14, Y3
	VFMADD231PS 0(DX)(R12*1), Y15, Y0
	VFMADD231PS 32(DX)(R12*1), Y15, Y1
	VFMADD231PS 64(DX)(R12*1), Y15, Y2
	VFMADD231PS 96(DX)(R12*1), Y15, Y3
	VMOVUPS Y0, 0(DI)(R12*1)
	VMOVUPS Y1, 32(DI)(R12*1)
	VMOVUPS Y2, 64(DI)(R12*1)
	VMOVUPS Y3, 96(DI)(R12*1)
	ADDQ $128, R12
	JMP cols32

cols8:
	CMPQ R12, R13
	JGE next
	VMOVUPS (DI)(R12*1), Y0
	VFMADD231PS (AX)(R12*1), Y12, Y0
	VFMADD231PS (BX)(R12*1), Y13, Y0
	VFMADD231PS (CX)(R12*1), Y14, Y0
	VFMADD231PS (DX)(R12*1), Y15, Y0
	VMOVUPS Y0, (DI)(R12*1)
	ADDQ $32, R12
	JMP cols8

next:
	LEAQ (R8)(R11*4), R8
	ADDQ $16, SI
	SUBQ $4, R9
	JMP rows4

done:
	VZEROUPPER
	RET

// func gemvDot4x8(y, x, w *float32, rows, cols, ldw int)
// y[i] = Σ_j w[i·ldw+j]·x[j] for i < rows (a multiple of 4) and j < cols (a multiple of 8):
// four dot products at a time against x, which stays in cache.
TEXT ·gemvDot4x8(SB), NOSPLIT, $0-48
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ w+16(FP), R8
	MOVQ rows+24(FP), R9
	MOVQ cols+32(FP), R13
	MOVQ ldw+40(FP), R11
	SHLQ $2, R11
	SHLQ $2, R13

dots4:
	CMPQ R9, $4
	JLT dotsdone
	FOURROWS
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ R12, R12

dotcols:
	CMPQ R12, R13
	JGE dotsum
	VMOVUPS (SI)(R12*1), Y4
	VFMADD231PS (AX)(R12*1), Y4, Y0
	VFMADD231PS (BX)(R12*1), Y4, Y1
	VFMADD231PS (CX)(R12*1), Y4, Y2
	VFMADD231PS (DX)(R12*1), Y4, Y3
	ADDQ $32, R12
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
