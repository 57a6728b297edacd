//go:build !amd64

package fast

// PeakKernel names the kernel FMAPeak runs on this CPU: "" off amd64, where this package
// has no peak kernel, so a ceiling is not guessed.
var PeakKernel = ""

// FMAPeak returns 0 off amd64: there is no peak kernel to run (see peak_amd64.go).
func FMAPeak(rounds int) float64 { return 0 }

// BF16PeakKernel names the kernel BF16Peak runs on this CPU: "" off amd64, as PeakKernel.
var BF16PeakKernel = ""

// BF16Peak returns 0 off amd64: there is no bf16 peak kernel to run (see peak_amd64.go).
func BF16Peak(rounds int) float64 { return 0 }
