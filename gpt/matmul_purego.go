//go:build !openblas

package gpt

// gemmRows runs a gemm over the rows [0, N) of its output. gonum's pure-Go Sgemm already
// splits a product over the cores, so the rows go in one call.
func gemmRows(N int, fn func(lo, hi int)) { fn(0, N) }

// BLAS names the matrix-product implementation this build uses.
const BLAS = "gonum (pure Go)"

// openBLAS says whether this build multiplies through OpenBLAS (tests size themselves by it).
const openBLAS = false

// splitGemm: gonum's pure-Go Sgemm splits its products over the cores itself.
const splitGemm = false
