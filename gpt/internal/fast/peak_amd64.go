package fast

// PeakKernel names the kernel FMAPeak runs on this CPU, or is "" when there is none.
var PeakKernel = func() string {
	if !HasAVX2 {
		return ""
	}
	return "AVX2 FMA: 12 independent 8-wide FMAs a round"
}()

// FMAPeak runs the peak kernel for rounds rounds on the calling goroutine and returns the
// floating-point operations it did (an FMA is two), or 0 when the CPU has no peak kernel
// (PeakKernel is ""). Its rate on one core is the core's peak; on every core at once, the
// machine's. The kernel is fmaPeak (sgemm_amd64.s): twelve accumulators, so that each
// FMA's latency hides behind the other eleven and only the FMA units' throughput counts.
func FMAPeak(rounds int) float64 {
	if PeakKernel == "" || rounds <= 0 {
		return 0
	}
	fmaPeak(rounds)
	return float64(rounds) * 12 * 8 * 2
}
