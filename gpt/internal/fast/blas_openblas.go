//go:build openblas

package fast

import (
	"os"

	"gonum.org/v1/netlib/blas/netlib"

	"github.com/gptnotes/gptnotes/gpt/internal/openblas"
)

// With the openblas build tag, the products run on OpenBLAS (cgo), with our sgemm as its Sgemm where
// the CPU has AVX2 and FMA (useBLAS). OpenBLAS runs single-threaded and the model splits
// its products over the cores with goroutines, so OpenBLAS's threads never compete with the
// goroutines of the attention kernel. Setting OPENBLAS_NUM_THREADS (above 1) hands the
// threading of OpenBLAS's products back to OpenBLAS.
func init() {
	splits := true
	if n := os.Getenv("OPENBLAS_NUM_THREADS"); n != "" && n != "1" {
		splits = false
	} else {
		openblas.SetThreads(1)
	}
	useBLAS(netlib.Implementation{}, "OpenBLAS (cgo)", splits)
}

// OpenBLAS says whether this build multiplies through OpenBLAS (tests size themselves by it).
const OpenBLAS = true
