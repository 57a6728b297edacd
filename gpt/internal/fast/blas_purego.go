//go:build !openblas

package fast

import "gonum.org/v1/gonum/blas/gonum"

// Without the openblas tag, the products run on gonum's pure-Go BLAS, with our sgemm as its Sgemm
// where the CPU has AVX2 and FMA (useBLAS). Both split their products over the cores.
func init() { useBLAS(gonum.Implementation{}, "gonum's pure-Go BLAS", false) }

// OpenBLAS says whether this build multiplies through OpenBLAS (tests size themselves by it).
const OpenBLAS = false
