#include "textflag.h"

// The micro-kernel of fewrows.go: sgemm_amd64.s's 6×16 tile with neither operand packed.
// Six rows of x are read in place (a row stride apart, one float a step) and sixteen
// columns of w straight from its rows (a row stride apart, sixteen floats a step).

// LOADF loads sixteen floats of a row of w at bo(DI) (bo a register offset) into Y12, Y13,
// and prefetches the same row 256 bytes on, a later panel's: rows of w a stride apart are
// pages apart, where the hardware's prefetchers do not follow (without it, the first tile
// of each panel waits on memory for every row).
#define LOADF(bo) \
	PREFETCHT0 256(DI)(bo*1); \
	VMOVUPS (DI)(bo*1), Y12; \
	VMOVUPS 32(DI)(bo*1), Y13

// LOADH loads sixteen bfloat16 of a row of w at bo(DI) widened to floats into Y12, Y13 (a
// bfloat16 is the top half of a float32), prefetching as LOADF.
#define LOADH(bo) \
	PREFETCHT0 256(DI)(bo*1); \
	VPMOVZXWD (DI)(bo*1), Y12; \
	VPMOVZXWD 16(DI)(bo*1), Y13; \
	VPSLLD $16, Y12, Y12; \
	VPSLLD $16, Y13, Y13

// FMA6 multiplies Y12, Y13 by six floats of x at ao(SI) and ao(R10) (rows 0-2 and 3-5) and
// adds them into the twelve accumulators.
#define FMA6(ao) \
	VBROADCASTSS ao(SI), Y14; \
	VFMADD231PS Y12, Y14, Y0; \
	VFMADD231PS Y13, Y14, Y1; \
	VBROADCASTSS ao(SI)(R9*1), Y15; \
	VFMADD231PS Y12, Y15, Y2; \
	VFMADD231PS Y13, Y15, Y3; \
	VBROADCASTSS ao(SI)(R9*2), Y14; \
	VFMADD231PS Y12, Y14, Y4; \
	VFMADD231PS Y13, Y14, Y5; \
	VBROADCASTSS ao(R10), Y15; \
	VFMADD231PS Y12, Y15, Y6; \
	VFMADD231PS Y13, Y15, Y7; \
	VBROADCASTSS ao(R10)(R9*1), Y14; \
	VFMADD231PS Y12, Y14, Y8; \
	VFMADD231PS Y13, Y14, Y9; \
	VBROADCASTSS ao(R10)(R9*2), Y15; \
	VFMADD231PS Y12, Y15, Y10; \
	VFMADD231PS Y13, Y15, Y11

// ZERO12R clears the twelve accumulators.
#define ZERO12R \
	VXORPS Y0, Y0, Y0; \
	VXORPS Y1, Y1, Y1; \
	VXORPS Y2, Y2, Y2; \
	VXORPS Y3, Y3, Y3; \
	VXORPS Y4, Y4, Y4; \
	VXORPS Y5, Y5, Y5; \
	VXORPS Y6, Y6, Y6; \
	VXORPS Y7, Y7, Y7; \
	VXORPS Y8, Y8, Y8; \
	VXORPS Y9, Y9, Y9; \
	VXORPS Y10, Y10, Y10; \
	VXORPS Y11, Y11, Y11

// LOADC loads the accumulators from the six rows of C at DX and R13 (rows 0-2 and 3-5, row stride R8 bytes).
#define LOADC \
	VMOVUPS (DX), Y0; \
	VMOVUPS 32(DX), Y1; \
	VMOVUPS (DX)(R8*1), Y2; \
	VMOVUPS 32(DX)(R8*1), Y3; \
	VMOVUPS (DX)(R8*2), Y4; \
	VMOVUPS 32(DX)(R8*2), Y5; \
	VMOVUPS (R13), Y6; \
	VMOVUPS 32(R13), Y7; \
	VMOVUPS (R13)(R8*1), Y8; \
	VMOVUPS 32(R13)(R8*1), Y9; \
	VMOVUPS (R13)(R8*2), Y10; \
	VMOVUPS 32(R13)(R8*2), Y11

// ADDC adds the accumulators to the six rows of C.
#define ADDC \
	VADDPS (DX), Y0, Y0; \
	VMOVUPS Y0, (DX); \
	VADDPS 32(DX), Y1, Y1; \
	VMOVUPS Y1, 32(DX); \
	VADDPS (DX)(R8*1), Y2, Y2; \
	VMOVUPS Y2, (DX)(R8*1); \
	VADDPS 32(DX)(R8*1), Y3, Y3; \
	VMOVUPS Y3, 32(DX)(R8*1); \
	VADDPS (DX)(R8*2), Y4, Y4; \
	VMOVUPS Y4, (DX)(R8*2); \
	VADDPS 32(DX)(R8*2), Y5, Y5; \
	VMOVUPS Y5, 32(DX)(R8*2); \
	VADDPS (R13), Y6, Y6; \
	VMOVUPS Y6, (R13); \
	VADDPS 32(R13), Y7, Y7; \
	VMOVUPS Y7, 32(R13); \
	VADDPS (R13)(R8*1), Y8, Y8; \
	VMOVUPS Y8, (R13)(R8*1); \
	VADDPS 32(R13)(R8*1), Y9, Y9; \
	VMOVUPS Y9, 32(R13)(R8*1); \
	VADDPS (R13)(R8*2), Y10, Y10; \
	VMOVUPS Y10, (R13)(R8*2); \
	VADDPS 32(R13)(R8*2), Y11, Y11; \
	VMOVUPS Y11, 32(R13)(R8*2)

// SETC stores the accumulators plus the bias at (R12) in the six rows of C.
#define SETC \
	VMOVUPS (R12), Y12; \
	VMOVUPS 32(R12), Y13; \
	VADDPS Y12, Y0, Y0; \
	VMOVUPS Y0, (DX); \
	VADDPS Y13, Y1, Y1; \
	VMOVUPS Y1, 32(DX); \
	VADDPS Y12, Y2, Y2; \
	VMOVUPS Y2, (DX)(R8*1); \
	VADDPS Y13, Y3, Y3; \
	VMOVUPS Y3, 32(DX)(R8*1); \
	VADDPS Y12, Y4, Y4; \
	VMOVUPS Y4, (DX)(R8*2); \
	VADDPS Y13, Y5, Y5; \
	VMOVUPS Y5, 32(DX)(R8*2); \
	VADDPS Y12, Y6, Y6; \
	VMOVUPS Y6, (R13); \
	VADDPS Y13, Y7, Y7; \
	VMOVUPS Y7, 32(R13); \
	VADDPS Y12, Y8, Y8; \
	VMOVUPS Y8, (R13)(R8*1); \
	VADDPS Y13, Y9, Y9; \
	VMOVUPS Y9, 32(R13)(R8*1); \
	VADDPS Y12, Y10, Y10; \
	VMOVUPS Y10, (R13)(R8*2); \
	VADDPS Y13, Y11, Y11; \
	VMOVUPS Y11, 32(R13)(R8*2)

// STOREC stores the accumulators in the six rows of C.
#define STOREC \
	VMOVUPS Y0, (DX); \
	VMOVUPS Y1, 32(DX); \
	VMOVUPS Y2, (DX)(R8*1); \
	VMOVUPS Y3, 32(DX)(R8*1); \
	VMOVUPS Y4, (DX)(R8*2); \
	VMOVUPS Y5, 32(DX)(R8*2); \
	VMOVUPS Y6, (R13); \
	VMOVUPS Y7, 32(R13); \
	VMOVUPS Y8, (R13)(R8*1); \
	VMOVUPS Y9, 32(R13)(R8*1); \
	VMOVUPS Y10, (R13)(R8*2); \
	VMOVUPS Y11, 32(R13)(R8*2)

// func kernRows6x16(kc int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int, bias *float32, cont bool)
// P[i][j] = Σ_p a[i·lda+p]·b[p·ldb+j] for i < 6, j < 16, p < kc, each a chain of FMAs in
// the order of p, as kern6x16's, from zero: added to C (row stride ldc) when bias is nil,
// or stored as C[i][j] = P[i][j] + bias[j] without reading C. With cont, the chains start
// from C instead and end in C: a chain of steps continued from an earlier call's. Four
// steps a round.
TEXT ·kernRows6x16(SB), NOSPLIT, $0-65
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R9
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R11
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R8
	MOVQ bias+56(FP), R12
	MOVBQZX cont+64(FP), R14
	SHLQ $2, R9
	SHLQ $2, R11            // row stride of b in bytes
	SHLQ $2, R8
	LEAQ (SI)(R9*2), R10
	ADDQ R9, R10            // R10: row 3 of a
	LEAQ (DX)(R8*2), R13
	ADDQ R8, R13            // R13: row 3 of C
	XORQ AX, AX             // offset of row p of b
	TESTQ R14, R14
	JNE cont
	ZERO12R
	JMP start

cont:
	LOADC

start:
	MOVQ CX, BX
	SHRQ $2, BX
	ANDQ $3, CX
	TESTQ BX, BX
	JE tail

loop4:
	MOVQ AX, R14
	LOADF(R14); FMA6(0)
	ADDQ R11, R14
	LOADF(R14); FMA6(4)
	ADDQ R11, R14
	LOADF(R14); FMA6(8)
	ADDQ R11, R14
	LOADF(R14); FMA6(12)
	LEAQ (AX)(R11*4), AX
	ADDQ $16, SI
	ADDQ $16, R10
	DECQ BX
	JNE loop4

tail:
	TESTQ CX, CX
	JE store

loop1:
	LOADF(AX); FMA6(0)
	ADDQ R11, AX
	ADDQ $4, SI
	ADDQ $4, R10
	DECQ CX
	JNE loop1

store:
	TESTQ R12, R12
	JNE set
	MOVBQZX cont+64(FP), R14
	TESTQ R14, R14
	JNE overwrite
	ADDC
	VZEROUPPER
	RET

overwrite:
	STOREC
	VZEROUPPER
	RET

set:
	SETC
	VZEROUPPER
	RET

// func kernRows6x16H(kc int, a *float32, lda int, b *uint16, ldb int, c *float32, ldc int, bias *float32, cont bool)
// kernRows6x16 with b in bfloat16, each row's sixteen values widened in registers.
TEXT ·kernRows6x16H(SB), NOSPLIT, $0-65
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R9
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R11
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R8
	MOVQ bias+56(FP), R12
	MOVBQZX cont+64(FP), R14
	SHLQ $2, R9
	SHLQ $1, R11            // row stride of b in bytes
	SHLQ $2, R8
	LEAQ (SI)(R9*2), R10
	ADDQ R9, R10            // R10: row 3 of a
	LEAQ (DX)(R8*2), R13
	ADDQ R8, R13            // R13: row 3 of C
	XORQ AX, AX             // offset of row p of b
	TESTQ R14, R14
	JNE cont
	ZERO12R
	JMP start

cont:
	LOADC

start:
	MOVQ CX, BX
	SHRQ $2, BX
	ANDQ $3, CX
	TESTQ BX, BX
	JE tail

loop4:
	MOVQ AX, R14
	LOADH(R14); FMA6(0)
	ADDQ R11, R14
	LOADH(R14); FMA6(4)
	ADDQ R11, R14
	LOADH(R14); FMA6(8)
	ADDQ R11, R14
	LOADH(R14); FMA6(12)
	LEAQ (AX)(R11*4), AX
	ADDQ $16, SI
	ADDQ $16, R10
	DECQ BX
	JNE loop4

tail:
	TESTQ CX, CX
	JE store

loop1:
	LOADH(AX); FMA6(0)
	ADDQ R11, AX
	ADDQ $4, SI
	ADDQ $4, R10
	DECQ CX
	JNE loop1

store:
	TESTQ R12, R12
	JNE set
	MOVBQZX cont+64(FP), R14
	TESTQ R14, R14
	JNE overwrite
	ADDC
	VZEROUPPER
	RET

overwrite:
	STOREC
	VZEROUPPER
	RET

set:
	SETC
	VZEROUPPER
	RET
