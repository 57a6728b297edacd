#include "textflag.h"

// roundBF16AVX2's constants, one 32-bit lane each (broadcast).
DATA roundConst<>+0(SB)/4, $0x7fffffff  // |b|
DATA roundConst<>+4(SB)/4, $0x7f800000  // infinity: |b| above it is a NaN
DATA roundConst<>+8(SB)/4, $0x00000001  // the lowest kept bit
DATA roundConst<>+12(SB)/4, $0x00007fff // half an ulp of bfloat16, less one
DATA roundConst<>+16(SB)/4, $0xffff0000 // the bits a bfloat16 keeps
DATA roundConst<>+20(SB)/4, $0x00400000 // a NaN's quiet bit
GLOBL roundConst<>(SB), RODATA|NOPTR, $24

// func roundBF16AVX2(x []float32)
// Rounds each of x (len a multiple of 8, not 0) to the nearest bfloat16, ties to even, as
// toBF16 does, eight at a time: b + 0x7fff + (b>>16 & 1), the low half cleared; a NaN keeps
// its top half with the quiet bit set.
TEXT ·roundBF16AVX2(SB), NOSPLIT, $0-24
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	VPBROADCASTD roundConst<>+0(SB), Y8
	VPBROADCASTD roundConst<>+4(SB), Y9
	VPBROADCASTD roundConst<>+8(SB), Y10
	VPBROADCASTD roundConst<>+12(SB), Y11
	VPBROADCASTD roundConst<>+16(SB), Y12
	VPBROADCASTD roundConst<>+20(SB), Y13

loop:
	VMOVDQU (SI), Y0
	VPAND Y8, Y0, Y1
	VPCMPGTD Y9, Y1, Y2   // NaN lanes: |b| > infinity
	VPSRLD $16, Y0, Y3
	VPAND Y10, Y3, Y3
	VPADDD Y0, Y3, Y3
	VPADDD Y11, Y3, Y3
	VPAND Y12, Y3, Y3     // rounded
	VPOR Y13, Y0, Y4
	VPAND Y12, Y4, Y4     // quiet NaN
	VPBLENDVB Y2, Y4, Y3, Y3
	VMOVDQU Y3, (SI)
	ADDQ $32, SI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func toBF16sAVX512BF16(dst *uint16, src *float32, n int)
// dst[i] = src[i] rounded to the nearest bfloat16, ties to even, for i < n (a multiple of
// 16), sixteen at a time with VCVTNEPS2BF16 (AVX-512 BF16, spelled in bytes as VDPBF16PS is
// in gemv16dp_amd64.s). As toBF16, but for the inputs the instruction takes as zero, the
// subnormals, which the VDPBF16PS products these feed take as zero too.
TEXT ·toBF16sAVX512BF16(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

loop16:
	CMPQ CX, $16
	JLT done16
	VMOVUPS (SI), Z0
	BYTE $0x62; BYTE $0xf2; BYTE $0x7e; BYTE $0x48; BYTE $0x72; BYTE $0xc8 // VCVTNEPS2BF16 Z0, Y1
	VMOVDQU Y1, (DI)
	ADDQ $64, SI
	ADDQ $32, DI
	SUBQ $16, CX
	JMP loop16

done16:
	VZEROUPPER
	RET
