#include "textflag.h"

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

// func gemvRows16AVX2(y, x *float32, w *uint16, rows, cols, ldw int)
// y[j] += Σ_i x[i]·w[i·ldw+j] for i < rows (a multiple of 4) and j < cols (a multiple of 8):
// four rows of w at a time, 32 columns per pass, y staying in cache. R12 is the column.
TEXT ·gemvRows16AVX2(SB), NOSPLIT, $0-48
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ w+16(FP), R8
	MOVQ rows+24(FP), R9
	MOVQ cols+32(FP), R13
	MOVQ ldw+40(FP), R11
	SHLQ $1, R11            // row stride in bytes
	MOVQ R13, R14
	ANDQ $-32, R14          // columns done 32 at a time

rows4:
	CMPQ R9, $4
	JLT done
	VBROADCASTSS 0(SI), Y12
	VBROADCASTSS 4(SI), Y13
	VBROADCASTSS 8(SI), Y14
	VBROADCASTSS 12(SI), Y15
	FOURROWS16
	XORQ R12, R12

cols32:
	CMPQ R12, R14
	JGE cols8
	VMOVUPS 0(DI)(R12*4), Y0
	VMOVUPS 32(DI)(R12*4), Y1
	VMOVUPS 64(DI)(R12*4), Y2
	VMOVUPS 96(DI)(R12*4), Y3
	WIDEN8(0, AX, Y4)
	WIDEN8(16, AX, Y5)
	WIDEN8(32, AX, Y6)
	WIDEN8(48, AX, Y7)
	VFMADD231PS Y4, Y12, Y0
	VFMADD231PS Y5, Y12, Y1
	VFMADD231PS Y6, Y12, Y2
	VFMADD231PS Y7, Y12, Y3
	WIDEN8(0, BX, Y8)
	WIDEN8(16, BX, Y9)
	WIDEN8(32, BX, Y10)
	WIDEN8(48, BX, Y11)
	VFMADD231PS Y8, Y13, Y0
	VFMADD231PS Y9, Y13, Y1
	VFMADD231PS Y10, Y13, Y2
	VFMADD231PS Y11, Y13, Y3
	WIDEN8(0, CX, Y4)
	WIDEN8(16, CX, Y5)
	WIDEN8(32, CX, Y6)
	WIDEN8(48, CX, Y7)
	VFMADD231PS Y4, Y14, Y0
	VFMADD231PS Y5, Y14, Y1
	VFMADD231PS Y6, Y14, Y2
	VFMADD231PS Y7, Y14, Y3
	WIDEN8(0, DX, Y8)
	WIDEN8(16, DX, Y9)
	WIDEN8(32, DX, Y10)
	WIDEN8(48, DX, Y11)
	VFMADD231PS Y8, Y15, Y0
	VFMADD231PS Y9, Y15, Y1
	VFMADD231PS Y10, Y15, Y2
	VFMADD231PS Y11, Y15, Y3
	VMOVUPS Y0, 0(DI)(R12*4)
	VMOVUPS Y1, 32(DI)(R12*4)
	VMOVUPS Y2, 64(DI)(R12*4)
	VMOVUPS Y3, 96(DI)(R12*4)
	ADDQ $32, R12
	JMP cols32

cols8:
	CMPQ R12, R13
	JGE next
	VMOVUPS (DI)(R12*4), Y0
	WIDEN8(0, AX, Y4)
	WIDEN8(0, BX, Y5)
	WIDEN8(0, CX, Y6)
	WIDEN8(0, DX, Y7)
	VFMADD231PS Y4, Y12, Y0
	VFMADD231PS Y5, Y13, Y0
	VFMADD231PS Y6, Y14, Y0
	VFMADD231PS Y7, Y15, Y0
	VMOVUPS Y0, (DI)(R12*4)
	ADDQ $8, R12
	JMP cols8

next:
	LEAQ (R8)(R11*4), R8
	ADDQ $16, SI
	SUBQ $4, R9
	JMP rows4

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
	VHADDPS Y1, Y0, Y0
	VHADDPS Y3, Y2, Y2
	VHADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VMOVUPS X0, (DI)
	ADDQ $16, DI
	LEAQ (R8)(R11*4), R8
	SUBQ $4, R9
	JMP dots4

dotsdone:
	VZEROUPPER
	RET
