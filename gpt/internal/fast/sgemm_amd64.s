#include "textflag.h"

// ZERO12 clears the twelve accumulators Y0-Y11 of a 6×16 tile (two registers a row).
#define ZERO12 \
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

// ADDSTORE6x16 adds the accumulators to the six rows of C at DX (row stride R8 bytes).
#define ADDSTORE6x16 \
	VADDPS (DX), Y0, Y0; \
	VMOVUPS Y0, (DX); \
	VADDPS 32(DX), Y1, Y1; \
	VMOVUPS Y1, 32(DX); \
	ADDQ R8, DX; \
	VADDPS (DX), Y2, Y2; \
	VMOVUPS Y2, (DX); \
	VADDPS 32(DX), Y3, Y3; \
	VMOVUPS Y3, 32(DX); \
	ADDQ R8, DX; \
	VADDPS (DX), Y4, Y4; \
	VMOVUPS Y4, (DX); \
	VADDPS 32(DX), Y5, Y5; \
	VMOVUPS Y5, 32(DX); \
	ADDQ R8, DX; \
	VADDPS (DX), Y6, Y6; \
	VMOVUPS Y6, (DX); \
	VADDPS 32(DX), Y7, Y7; \
	VMOVUPS Y7, 32(DX); \
	ADDQ R8, DX; \
	VADDPS (DX), Y8, Y8; \
	VMOVUPS Y8, (DX); \
	VADDPS 32(DX), Y9, Y9; \
	VMOVUPS Y9, 32(DX); \
	ADDQ R8, DX; \
	VADDPS (DX), Y10, Y10; \
	VMOVUPS Y10, (DX); \
	VADDPS 32(DX), Y11, Y11; \
	VMOVUPS Y11, 32(DX)

// STEP6x16 is one step p of the packed kernel: the panel's sixteen floats at bo(DI), the
// tile's six at ao(SI), twelve FMAs.
#define STEP6x16(ao, bo) \
	VMOVUPS bo(DI), Y12; \
	VMOVUPS 32+bo(DI), Y13; \
	VBROADCASTSS 0+ao(SI), Y14; \
	VFMADD231PS Y12, Y14, Y0; \
	VFMADD231PS Y13, Y14, Y1; \
	VBROADCASTSS 4+ao(SI), Y15; \
	VFMADD231PS Y12, Y15, Y2; \
	VFMADD231PS Y13, Y15, Y3; \
	VBROADCASTSS 8+ao(SI), Y14; \
	VFMADD231PS Y12, Y14, Y4; \
	VFMADD231PS Y13, Y14, Y5; \
	VBROADCASTSS 12+ao(SI), Y15; \
	VFMADD231PS Y12, Y15, Y6; \
	VFMADD231PS Y13, Y15, Y7; \
	VBROADCASTSS 16+ao(SI), Y14; \
	VFMADD231PS Y12, Y14, Y8; \
	VFMADD231PS Y13, Y14, Y9; \
	VBROADCASTSS 20+ao(SI), Y15; \
	VFMADD231PS Y12, Y15, Y10; \
	VFMADD231PS Y13, Y15, Y11

// func kern6x16S(kc int, a *float32, rs, cs int, b, c *float32, ldc int)
// C[6×16] (row stride ldc) += Σ_p a[i·rs+p·cs]·b[p*16+j]: b is a packed panel; a is six
// rows of a row-major matrix (rs its row stride, cs 1: attention's queries and
// probabilities).
TEXT ·kern6x16S(SB), NOSPLIT, $0-56
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ rs+16(FP), R9
	MOVQ cs+24(FP), R11
	MOVQ b+32(FP), DI
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R8
	SHLQ $2, R8
	SHLQ $2, R9
	SHLQ $2, R11
	LEAQ (SI)(R9*2), R10
	ADDQ R9, R10            // R10: row 3 of a
	ZERO12
	TESTQ CX, CX
	JE store

loop:
	VMOVUPS (DI), Y12
	VMOVUPS 32(DI), Y13
	VBROADCASTSS (SI), Y14
	VFMADD231PS Y12, Y14, Y0
	VFMADD231PS Y13, Y14, Y1
	VBROADCASTSS (SI)(R9*1), Y15
	VFMADD231PS Y12, Y15, Y2
	VFMADD231PS Y13, Y15, Y3
	VBROADCASTSS (SI)(R9*2), Y14
	VFMADD231PS Y12, Y14, Y4
	VFMADD231PS Y13, Y14, Y5
	VBROADCASTSS (R10), Y15
	VFMADD231PS Y12, Y15, Y6
	VFMADD231PS Y13, Y15, Y7
	VBROADCASTSS (R10)(R9*1), Y14
	VFMADD231PS Y12, Y14, Y8
	VFMADD231PS Y13, Y14, Y9
	VBROADCASTSS (R10)(R9*2), Y15
	VFMADD231PS Y12, Y15, Y10
	VFMADD231PS Y13, Y15, Y11
	ADDQ R11, SI
	ADDQ R11, R10
	ADDQ $64, DI
	DECQ CX
	JNE loop

store:
	ADDSTORE6x16
	VZEROUPPER
	RET

// func kern6x16(kc int, a, b, c *float32, ldc int, bias *float32)
// The 6×16 product P[i][j] = Σ_p a[p*6+i]·b[p*16+j] of a packed tile and a packed panel,
// added to C (row stride ldc) when bias is nil, or stored as C[i][j] = P[i][j] + bias[j]
// without reading C. The six rows of C are prefetched first, so that they arrive while the
// kernel computes; the loop runs four steps at a time.
TEXT ·kern6x16(SB), NOSPLIT, $0-48
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	MOVQ bias+40(FP), R10
	SHLQ $2, R8
	MOVQ DX, R9
	PREFETCHT0 (R9)
	PREFETCHT0 63(R9)
	ADDQ R8, R9
	PREFETCHT0 (R9)
	PREFETCHT0 63(R9)
	ADDQ R8, R9
	PREFETCHT0 (R9)
	PREFETCHT0 63(R9)
	ADDQ R8, R9
	PREFETCHT0 (R9)
	PREFETCHT0 63(R9)
	ADDQ R8, R9
	PREFETCHT0 (R9)
	PREFETCHT0 63(R9)
	ADDQ R8, R9
	PREFETCHT0 (R9)
	PREFETCHT0 63(R9)
	ZERO12
	MOVQ CX, BX
	SHRQ $2, BX
	ANDQ $3, CX
	TESTQ BX, BX
	JE tail

loop4:
	STEP6x16(0, 0)
	STEP6x16(24, 64)
	STEP6x16(48, 128)
	STEP6x16(72, 192)
	ADDQ $96, SI
	ADDQ $256, DI
	DECQ BX
	JNE loop4

tail:
	TESTQ CX, CX
	JE store

loop1:
	STEP6x16(0, 0)
	ADDQ $24, SI
	ADDQ $64, DI
	DECQ CX
	JNE loop1

store:
	TESTQ R10, R10
	JNE set
	ADDSTORE6x16
	VZEROUPPER
	RET

set:
	VMOVUPS (R10), Y12
	VMOVUPS 32(R10), Y13
	VADDPS Y12, Y0, Y0
	VMOVUPS Y0, (DX)
	VADDPS Y13, Y1, Y1
	VMOVUPS Y1, 32(DX)
	ADDQ R8, DX
	VADDPS Y12, Y2, Y2
	VMOVUPS Y2, (DX)
	VADDPS Y13, Y3, Y3
	VMOVUPS Y3, 32(DX)
	ADDQ R8, DX
	VADDPS Y12, Y4, Y4
	VMOVUPS Y4, (DX)
	VADDPS Y13, Y5, Y5
	VMOVUPS Y5, 32(DX)
	ADDQ R8, DX
	VADDPS Y12, Y6, Y6
	VMOVUPS Y6, (DX)
	VADDPS Y13, Y7, Y7
	VMOVUPS Y7, 32(DX)
	ADDQ R8, DX
	VADDPS Y12, Y8, Y8
	VMOVUPS Y8, (DX)
	VADDPS Y13, Y9, Y9
	VMOVUPS Y9, 32(DX)
	ADDQ R8, DX
	VADDPS Y12, Y10, Y10
	VMOVUPS Y10, (DX)
	VADDPS Y13, Y11, Y11
	VMOVUPS Y11, 32(DX)
	VZEROUPPER
	RET

// func fmaPeak(n int)
// n times twelve independent FMAs on registers: the core's peak (BenchmarkKernel).
TEXT ·fmaPeak(SB), NOSPLIT, $0-8
	MOVQ n+0(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
ploop:
	VFMADD231PS Y12, Y13, Y0
	VFMADD231PS Y12, Y13, Y1
	VFMADD231PS Y12, Y13, Y2
	VFMADD231PS Y12, Y13, Y3
	VFMADD231PS Y12, Y13, Y4
	VFMADD231PS Y12, Y13, Y5
	VFMADD231PS Y12, Y13, Y6
	VFMADD231PS Y12, Y13, Y7
	VFMADD231PS Y12, Y13, Y8
	VFMADD231PS Y12, Y13, Y9
	VFMADD231PS Y12, Y13, Y10
	VFMADD231PS Y12, Y13, Y11
	DECQ CX
	JNE ploop
	VZEROUPPER
	RET

// TRANSPOSE8 loads eight floats from each of eight rows of B (the first at r0, the fifth at
// r4, row stride R8, R9 = 3·R8) and stores them transposed: eight rows of eight, 64 bytes
// apart, from off(DI). Unpack, shuffle and permute, as in every AVX 8×8 transpose.
#define TRANSPOSE8(r0, r4, off) \
	VMOVUPS (r0), Y0; \
	VMOVUPS (r0)(R8*1), Y1; \
	VMOVUPS (r0)(R8*2), Y2; \
	VMOVUPS (r0)(R9*1), Y3; \
	VMOVUPS (r4), Y4; \
	VMOVUPS (r4)(R8*1), Y5; \
	VMOVUPS (r4)(R8*2), Y6; \
	VMOVUPS (r4)(R9*1), Y7; \
	VUNPCKLPS Y1, Y0, Y8; \
	VUNPCKHPS Y1, Y0, Y9; \
	VUNPCKLPS Y3, Y2, Y10; \
	VUNPCKHPS Y3, Y2, Y11; \
	VUNPCKLPS Y5, Y4, Y12; \
	VUNPCKHPS Y5, Y4, Y13; \
	VUNPCKLPS Y7, Y6, Y14; \
	VUNPCKHPS Y7, Y6, Y15; \
	VSHUFPS $0x44, Y10, Y8, Y0; \
	VSHUFPS $0xEE, Y10, Y8, Y1; \
	VSHUFPS $0x44, Y11, Y9, Y2; \
	VSHUFPS $0xEE, Y11, Y9, Y3; \
	VSHUFPS $0x44, Y14, Y12, Y4; \
	VSHUFPS $0xEE, Y14, Y12, Y5; \
	VSHUFPS $0x44, Y15, Y13, Y6; \
	VSHUFPS $0xEE, Y15, Y13, Y7; \
	VPERM2F128 $0x20, Y4, Y0, Y8; \
	VPERM2F128 $0x31, Y4, Y0, Y12; \
	VPERM2F128 $0x20, Y5, Y1, Y9; \
	VPERM2F128 $0x31, Y5, Y1, Y13; \
	VPERM2F128 $0x20, Y6, Y2, Y10; \
	VPERM2F128 $0x31, Y6, Y2, Y14; \
	VPERM2F128 $0x20, Y7, Y3, Y11; \
	VPERM2F128 $0x31, Y7, Y3, Y15; \
	VMOVUPS Y8, 0+off(DI); \
	VMOVUPS Y9, 64+off(DI); \
	VMOVUPS Y10, 128+off(DI); \
	VMOVUPS Y11, 192+off(DI); \
	VMOVUPS Y12, 256+off(DI); \
	VMOVUPS Y13, 320+off(DI); \
	VMOVUPS Y14, 384+off(DI); \
	VMOVUPS Y15, 448+off(DI)

// func packBT16(kc8 int, b *float32, ldb int, dst *float32)
// Packs sixteen rows of B (row stride ldb) as a panel of op(B) = Bᵀ: dst[p*16+j] = b[j*ldb+p]
// for p < 8·kc8, eight steps at a time as two 8×8 transposes in registers.
TEXT ·packBT16(SB), NOSPLIT, $0-32
	MOVQ kc8+0(FP), CX
	MOVQ b+8(FP), SI
	MOVQ ldb+16(FP), R8
	MOVQ dst+24(FP), DI
	SHLQ $2, R8
	LEAQ (R8)(R8*2), R9     // 3 rows
	LEAQ (SI)(R8*4), R10    // row 4
	LEAQ (SI)(R8*8), R11    // row 8
	LEAQ (R11)(R8*4), R12   // row 12
	TESTQ CX, CX
	JE done

loop:
	TRANSPOSE8(SI, R10, 0)  // rows 0-7: the left half of sixteen columns
	TRANSPOSE8(R11, R12, 32) // rows 8-15: the right half
	ADDQ $32, SI
	ADDQ $32, R10
	ADDQ $32, R11
	ADDQ $32, R12
	ADDQ $512, DI
	DECQ CX
	JNE loop

done:
	VZEROUPPER
	RET
