package fast

import "os"

// HasNEON reports that our arm64 kernels run: the sgemm micro-kernel and the one-row
// products (sgemm_arm64.s, gemv_arm64.s). Every arm64 CPU has NEON (Advanced SIMD) with
// fused multiply-add, so only $GPTNOTES_CPU=go turns them off, to test and time the
// portable paths. Tests set it false too.
var HasNEON = os.Getenv("GPTNOTES_CPU") != "go"

// hasKernels reports that this CPU runs our sgemm and gemv kernels (sgemm.go, gemv.go).
func hasKernels() bool { return HasNEON }

// kernelsName names those kernels, for BLAS.
const kernelsName = "NEON"
