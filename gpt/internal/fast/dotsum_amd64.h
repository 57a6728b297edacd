// SUM4 stores at (DI) the sums of the eight lanes of Y0, Y1, Y2 and Y3: the four dot
// products of the one-row dot kernels (gemv_amd64.s, gemv16_amd64.s, gemv16dp_amd64.s).
// It uses X1 and overwrites Y0 and Y2.
#define SUM4 \
	VHADDPS Y1, Y0, Y0; \
	VHADDPS Y3, Y2, Y2; \
	VHADDPS Y2, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPS X1, X0, X0; \
	VMOVUPS X0, (DI)
