//go:build !amd64

package fast

// FewMaxRows is the most rows a product runs on amd64's few-rows kernel (fewrows.go); off
// amd64 there is none, and products of more than GemvMaxRows rows take the sgemm.
const FewMaxRows = 16

// fewRows is false off amd64.
func fewRows(N int) bool { return false }

// fewConv1D is never called off amd64 (fewRows is false).
func fewConv1D(out, x, w []float32, w16 []uint16, bias []float32, N, C, OC int) {
	panic("gpt/internal/fast: few-rows kernel off amd64")
}

// fewConv1D16DP is never called off amd64, like fewConv1D.
func fewConv1D16DP(out, x []float32, w []uint16, bias []float32, N, C, OC int) {
	panic("gpt/internal/fast: few-rows kernel off amd64")
}
