#include "textflag.h"

// Constants of exp32 (Cephes' expf), broadcast by VBROADCASTSS.
DATA expconst<>+0(SB)/4, $0x3fb8aa3b   // log2(e) = 1.44269504
DATA expconst<>+4(SB)/4, $0x3f000000   // 0.5
DATA expconst<>+8(SB)/4, $0x3f318000   // C1 = 0.693359375
DATA expconst<>+12(SB)/4, $0xb95e8083  // C2 = -2.12194440e-4
DATA expconst<>+16(SB)/4, $0x39506967  // p0 = 1.9875691500e-4
DATA expconst<>+20(SB)/4, $0x3ab743ce  // p1 = 1.3981999507e-3
DATA expconst<>+24(SB)/4, $0x3c088908  // p2 = 8.3334519073e-3
DATA expconst<>+28(SB)/4, $0x3d2aa9c1  // p3 = 4.1665795894e-2
DATA expconst<>+32(SB)/4, $0x3e2aaaaa  // p4 = 1.6666665459e-1
DATA expconst<>+36(SB)/4, $0x3f000000  // p5 = 5.0000001201e-1
DATA expconst<>+40(SB)/4, $0x3f800000  // 1.0
DATA expconst<>+44(SB)/4, $0xc2aeac50  // lo = -87.3365
DATA expconst<>+48(SB)/4, $0x42b0c0a5  // hi = 88.3762
DATA expconst<>+52(SB)/4, $0x0000007f  // 127, the exponent bias
GLOBL expconst<>(SB), RODATA|NOPTR, $56

// EXPCONSTS loads the constants EXP8 needs into Y7-Y14 (1, 127, hi, lo, C2, C1, 0.5, log2e).
// EXP8 then sets Y3 = exp32(Y0) in eight lanes, Y0 clamped to [lo, hi] first (Cephes'
// expf: 2^fx times a polynomial of the remainder), using Y0-Y4.
#define EXPCONSTS \
	VBROADCASTSS expconst<>+0(SB), Y14; \
	VBROADCASTSS expconst<>+4(SB), Y13; \
	VBROADCASTSS expconst<>+8(SB), Y12; \
	VBROADCASTSS expconst<>+12(SB), Y11; \
	VBROADCASTSS expconst<>+44(SB), Y10; \
	VBROADCASTSS expconst<>+48(SB), Y9; \
	VPBROADCASTD expconst<>+52(SB), Y8; \
	VBROADCASTSS expconst<>+40(SB), Y7

#define EXP8 \
	VMAXPS Y10, Y0, Y0; \
	VMINPS Y9, Y0, Y0; \
	VMOVAPS Y13, Y1; \
	VFMADD231PS Y14, Y0, Y1; \
	VROUNDPS $1, Y1, Y1; \
	VFNMADD231PS Y12, Y1, Y0; \
	VFNMADD231PS Y11, Y1, Y0; \
	VMULPS Y0, Y0, Y2; \
	VBROADCASTSS expconst<>+16(SB), Y3; \
	VBROADCASTSS expconst<>+20(SB), Y4; \
	VFMADD213PS Y4, Y0, Y3; \
	VBROADCASTSS expconst<>+24(SB), Y4; \
	VFMADD213PS Y4, Y0, Y3; \
	VBROADCASTSS expconst<>+28(SB), Y4; \
	VFMADD213PS Y4, Y0, Y3; \
	VBROADCASTSS expconst<>+32(SB), Y4; \
	VFMADD213PS Y4, Y0, Y3; \
	VBROADCASTSS expconst<>+36(SB), Y4; \
	VFMADD213PS Y4, Y0, Y3; \
	VFMADD213PS Y0, Y2, Y3; \
	VADDPS Y7, Y3, Y3; \
	VCVTPS2DQ Y1, Y4; \
	VPADDD Y8, Y4, Y4; \
	VPSLLD $23, Y4, Y4; \
	VMULPS Y4, Y3, Y3

// func expSumAVX2(x []float32, shift float32) float32
// x[i] = exp32(x[i]-shift) for the first len(x)&^7 elements; returns their sum.
TEXT ·expSumAVX2(SB), NOSPLIT, $0-36
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	SHRQ $3, CX
	VBROADCASTSS shift+24(FP), Y15
	EXPCONSTS
	VXORPS Y6, Y6, Y6                    // sum
	TESTQ CX, CX
	JE done

loop:
	VMOVUPS (SI), Y0
	VSUBPS Y15, Y0, Y0           // x -= shift
	EXP8
	VMOVUPS Y3, (SI)
	VADDPS Y3, Y6, Y6
	ADDQ $32, SI
	DECQ CX
	JNE loop

done:
	VEXTRACTF128 $1, Y6, X0
	VADDPS X0, X6, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VZEROUPPER
	MOVSS X0, ret+32(FP)
	RET

// func sumExpAVX2(x []float32, shift float32) float32
// The sum expSumAVX2 returns, the same operations in the same order, without storing the
// exponentials: x is left as it is.
TEXT ·sumExpAVX2(SB), NOSPLIT, $0-36
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	SHRQ $3, CX
	VBROADCASTSS shift+24(FP), Y15
	EXPCONSTS
	VXORPS Y6, Y6, Y6                    // sum
	TESTQ CX, CX
	JE sumdone

sumloop:
	VMOVUPS (SI), Y0
	VSUBPS Y15, Y0, Y0           // x -= shift
	EXP8
	VADDPS Y3, Y6, Y6
	ADDQ $32, SI
	DECQ CX
	JNE sumloop

sumdone:
	VEXTRACTF128 $1, Y6, X0
	VADDPS X0, X6, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VZEROUPPER
	MOVSS X0, ret+32(FP)
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-4
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	RET

// func geluAVX2(out, inp []float32, k, c float32)
// out[i] = x/(1 + exp32(k·x·(1 + c·x²))) for x = inp[i], the first len(inp)&^7 elements:
// GELU's tanh approximation with k = -2·√(2/π) and c = 0.044715 (mlp.go), in one pass.
TEXT ·geluAVX2(SB), NOSPLIT, $0-56
	MOVQ out_base+0(FP), DI
	MOVQ inp_base+24(FP), SI
	MOVQ inp_len+32(FP), CX
	SHRQ $3, CX
	VBROADCASTSS k+48(FP), Y15
	VBROADCASTSS c+52(FP), Y6
	EXPCONSTS
	TESTQ CX, CX
	JE geludone

geluloop:
	VMOVUPS (SI), Y5             // x
	VMULPS Y5, Y5, Y0            // x²
	VMOVAPS Y7, Y1
	VFMADD231PS Y6, Y0, Y1       // 1 + c·x²
	VMULPS Y5, Y1, Y0            // x·(1 + c·x²)
	VMULPS Y15, Y0, Y0           // a = k·x·(1 + c·x²)
	EXP8                         // Y3 = e^a
	VADDPS Y7, Y3, Y3            // 1 + e
	VDIVPS Y3, Y5, Y5            // x / (1 + e)
	VMOVUPS Y5, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE geluloop

geludone:
	VZEROUPPER
	RET
