package bench

// The roofline (Williams, Waterman and Patterson, 2009): a step that does FLOPs
// floating-point operations while moving Bytes to and from memory has an arithmetic
// intensity I = FLOPs/Bytes, and can go no faster than min(peak, I·bandwidth). Below the
// ridge I = peak/bandwidth memory binds it, above it the arithmetic.

// Roof is one measured step on the roofline: what it did, how long it took, and the ceiling
// that bounds it.
type Roof struct {
	FLOPs      float64 `json:"flops"`             // floating-point operations in one run
	Bytes      float64 `json:"bytes"`             // the bytes one run must move at least: weights, cache, inputs, outputs
	Seconds    float64 `json:"seconds"`           // one run, the mean of the repetitions
	InLLC      bool    `json:"in_llc"`            // its bytes fit in the last-level cache
	Bound      string  `json:"bound"`             // the ceiling that binds, e.g. "memory stream"
	Attainable float64 `json:"attainable_gflops"` // that ceiling at this intensity, GFLOP/s; 0 when none is measured
	Fraction   float64 `json:"fraction"`          // GFLOPs()/Attainable, e.g. 0.82; 0 when none is measured
}

// Intensity is the step's arithmetic intensity, FLOPs a byte.
func (r Roof) Intensity() float64 { return r.FLOPs / r.Bytes }

// GFLOPs is the rate achieved, GFLOP/s.
func (r Roof) GFLOPs() float64 { return r.FLOPs / r.Seconds / 1e9 }

// GBs is the rate at which the step's bytes went by, GB/s.
func (r Roof) GBs() float64 { return r.Bytes / r.Seconds / 1e9 }

// The ceilings' names in Roof.Bound.
const (
	BoundPeak          = "FMA peak"
	BoundStream        = "memory stream"
	BoundPeakInLLC     = "FMA peak (bytes fit in LLC)"
	BoundNoPeakLLC     = "none (bytes fit in LLC, no peak kernel)"
	BoundStreamOnly    = "memory stream (no peak kernel)"
	BoundBF16Peak      = "bf16 peak"
	BoundBF16PeakInLLC = "bf16 peak (bytes fit in LLC)"
)

// bound sets r's Bound, Attainable and Fraction from the ceilings, for a step in precision
// ("fp32" or "bf16"): a bf16 step's peak is the bf16 peak where one was measured (its
// products run on VDPBF16PS), any other step's the FMA peak. Where the memory stream would
// bind but r's bytes fit in the last-level cache (r.InLLC), it does not, being a bandwidth
// from DRAM: then only the peak does.
func (c Ceilings) bound(r *Roof, precision string) {
	peak, atPeak, inLLC := c.PeakTotal, BoundPeak, BoundPeakInLLC
	if precision == "bf16" && c.BF16PeakTotal > 0 {
		peak, atPeak, inLLC = c.BF16PeakTotal, BoundBF16Peak, BoundBF16PeakInLLC
	}
	memory := r.Intensity() * c.StreamGBs // FLOPs a byte × GB/s = GFLOP/s
	switch {
	case peak > 0 && peak <= memory:
		r.Bound, r.Attainable = atPeak, peak
	case r.InLLC && peak > 0:
		r.Bound, r.Attainable = inLLC, peak
	case r.InLLC:
		r.Bound, r.Attainable = BoundNoPeakLLC, 0
	case peak > 0:
		r.Bound, r.Attainable = BoundStream, memory
	default:
		r.Bound, r.Attainable = BoundStreamOnly, memory
	}
	r.Fraction = 0
	if r.Attainable > 0 {
		r.Fraction = r.GFLOPs() / r.Attainable
	}
}

// Ridge is the intensity, FLOPs a byte, where the two ceilings meet: steps below it are bound
// by memory, above it by arithmetic; 0 without a peak kernel.
func (c Ceilings) Ridge() float64 {
	if c.PeakTotal == 0 || c.StreamGBs == 0 {
		return 0
	}
	return c.PeakTotal / c.StreamGBs
}

// RidgeBF16 is the ridge of bf16 steps, where the memory stream meets the bf16 peak; 0
// without a bf16 peak kernel (their ridge is then Ridge's).
func (c Ceilings) RidgeBF16() float64 {
	if c.BF16PeakTotal == 0 || c.StreamGBs == 0 {
		return 0
	}
	return c.BF16PeakTotal / c.StreamGBs
}
