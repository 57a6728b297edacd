// The registers and arguments the decode walks share (attention_decode_amd64.s,
// attention_decode512_amd64.s).

// FOUR points AX, BX, CX and DX at four consecutive rows from R8 (stride R11 bytes).
#define FOUR \
	MOVQ R8, AX; \
	LEAQ (R8)(R11*1), BX; \
	LEAQ (R8)(R11*2), CX; \
	LEAQ (BX)(R11*2), DX

// PREFETCH4(size) asks for the core's piece of the four rows sixteen past R8 (heads·hs
// numbers of size bytes each, R10 of them) before the walk comes to them. The rows are a
// stride apart, and only a piece of each is read when the heads are split over the cores:
// the hardware prefetchers do not follow that, and each row would wait on its own fetch
// from memory. Sixteen rows on took the bf16 attention of a step of Small over 128–1,024
// cached positions from 2.0–3.4 to 1.2–1.9 µs a position on two cores (docs/performance.md,
// row A22). It uses R12 and R13 before the walk sets them, and labels pf1 … pf4done: once a
// function, as Go's labels are.
#define PFROW(size, loop, done) \
	MOVQ R10, R13; \
	IMULQ $size, R13; \
loop: \
	SUBQ $64, R13; \
	JLT done; \
	PREFETCHT0 (R12)(R13*1); \
	JMP loop; \
done: \
	ADDQ R11, R12
#define PREFETCH4(size) \
	LEAQ (R8)(R11*8), R12; \
	LEAQ (R12)(R11*8), R12; \
	PFROW(size, pf1, pf1done); \
	PFROW(size, pf2, pf2done); \
	PFROW(size, pf3, pf3done); \
	PFROW(size, pf4, pf4done)

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
