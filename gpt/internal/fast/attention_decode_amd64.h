// The registers and arguments the decode walks share (attention_decode_amd64.s,
// attention_decode512_amd64.s).

// FOUR points AX, BX, CX and DX at four consecutive rows from R8 (stride R11 bytes).
#define FOUR \
	MOVQ R8, AX; \
	LEAQ (R8)(R11*1), BX; \
	LEAQ (R8)(R11*2), CX; \
	LEAQ (BX)(R11*2), DX

// ARGS loads the arguments the four kernels share: the rows at R8, the count in R9,
// heads·hs in R10, the strides in R11 (elements of size bytes) and R14 (float32s), hs in
// the frame.
#define ARGS(size) \
	MOVQ rows+24(FP), R9; \
	MOVQ heads+32(FP), R10; \
	MOVQ hs+40(FP), R13; \
	MOVQ R13, hsl-8(SP); \
	IMULQ R13, R10; \
	MOVQ ld+48(FP), R11; \
	IMULQ $size, R11; \
	MOVQ lds+56(FP), R14; \
	SHLQ $2, R14
