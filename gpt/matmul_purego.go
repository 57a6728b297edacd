//go:build !openblas

package gpt

// Without the openblas tag, blas32 is gonum's pure-Go BLAS, with Sgemm replaced by the
// blocked AVX2 kernel of sgemm_amd64.go where the CPU has AVX2 and FMA.
func init() {
	useFastSgemm()
	if !hasAVX2 {
		BLAS = "gonum (pure Go)"
	}
}

// gemmRows runs a gemm over the rows [0, N) of its output. The pure-Go Sgemm (gonum's, or
// fastSgemm) already splits a product over the cores, so the rows go in one call.
func gemmRows(N int, fn func(lo, hi int)) { fn(0, N) }

// BLAS names the matrix-product implementation this build uses (a variable, so that the
// notebook kernel's symbol table, generated once, reports the build it runs in).
var BLAS = "own AVX2 sgemm, in gonum's pure-Go BLAS"

// openBLAS says whether this build multiplies through OpenBLAS (tests size themselves by it).
const openBLAS = false

// splitGemm: the pure-Go Sgemm splits its products over the cores itself.
const splitGemm = false
