//go:build !amd64 && !arm64

package fast

// HasNEON is false off arm64.
var HasNEON = false

// hasKernels is false off amd64 and arm64: every product takes its portable Go path.
func hasKernels() bool { return false }

// kernelsName is empty: there are no kernels of our own here.
const kernelsName = ""
