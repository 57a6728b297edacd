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

// BF16PeakKernel names the kernel BF16Peak runs on this CPU, or is "" when there is none:
// without AVX-512 BF16 (HasAVX512BF16) a BF16 model's products run on the FMA kernels, and
// FMAPeak is their ceiling.
var BF16PeakKernel = func() string {
	if !HasAVX512BF16 {
		return ""
	}
	return "AVX-512 BF16: 24 independent 16-lane VDPBF16PS a round"
}()

// bf16PeakChains is the number of independent VDPBF16PS in a round of dpbf16Peak.
const bf16PeakChains = 24

// BF16Peak runs the bf16 peak kernel for rounds rounds on the calling goroutine and returns
// the floating-point operations it did, or 0 when the CPU has none (BF16PeakKernel is "").
// VDPBF16PS, which a BF16 model's products run on (dpbf16_amd64.s, gemv16dp_amd64.s), does
// two multiply-adds in each of its sixteen lanes, 64 FLOPs an instruction against an 8-wide
// FMA's 16, so FMAPeak does not bound those products. The kernel is dpbf16Peak
// (dpbf16_amd64.s): 24 accumulators, so that each instruction's latency hides behind the
// others' and only the units' throughput counts.
func BF16Peak(rounds int) float64 {
	var sum [16]float32
	return bf16PeakRun(rounds, &bf16PeakOnes, &bf16PeakOnes, &sum)
}

// bf16PeakOnes is BF16Peak's operands: every bfloat16 1, so the sums stay finite.
var bf16PeakOnes = func() (a [16]uint32) {
	for i := range a {
		a[i] = 0x3f80_3f80 // a pair of bfloat16 1.0
	}
	return a
}()

// bf16PeakRun runs dpbf16Peak on a and b and returns its FLOPs; sum gets the kernel's
// accumulators added up: rounds·24·(a₀b₀ + a₁b₁) in each lane.
func bf16PeakRun(rounds int, a, b *[16]uint32, sum *[16]float32) float64 {
	if BF16PeakKernel == "" || rounds <= 0 {
		return 0
	}
	dpbf16Peak(rounds, a, b, sum)
	return float64(rounds) * bf16PeakChains * 16 * 4
}
