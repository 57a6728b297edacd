//go:build openblas

package gpt

import (
	"os"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/netlib/blas/netlib"

	"github.com/gptnotes/gptnotes/gpt/internal/openblas"
)

// With the openblas build tag, every blas32 call goes to OpenBLAS (cgo). OpenBLAS runs
// single-threaded and the model splits each product over the cores with goroutines, so
// OpenBLAS's threads never compete with the goroutines of the attention kernel. Setting
// OPENBLAS_NUM_THREADS (above 1) hands the big products' threading back to OpenBLAS.
func init() {
	blas32.Use(netlib.Implementation{})
	if !hasAVX2 {
		BLAS = "OpenBLAS (cgo)"
	}
	if n := os.Getenv("OPENBLAS_NUM_THREADS"); n != "" && n != "1" {
		splitGemm = false
		return
	}
	openblas.SetThreads(1)
}

// gemmRows splits a gemm over the rows [0, N) of its output, one chunk per core.
func gemmRows(N int, fn func(lo, hi int)) { parallelChunks(N, 16, fn) }

// BLAS names the matrix-product implementation this build uses (a variable, so that the
// notebook kernel's symbol table, generated once, reports the build it runs in).
var BLAS = "own AVX2 sgemm for the model's products, OpenBLAS (cgo) for the rest"

// openBLAS says whether this build multiplies through OpenBLAS (tests size themselves by it).
const openBLAS = true

// splitGemm: OpenBLAS runs single-threaded here, so the model splits its products.
var splitGemm = true
