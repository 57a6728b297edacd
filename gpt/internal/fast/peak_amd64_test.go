package fast

import (
	"math"
	"testing"
)

// TestBF16PeakComputes checks that the bf16 peak kernel does the work it counts: on operands
// that differ lane by lane, its accumulators' sum equals a scalar loop doing what VDPBF16PS
// does (each lane's accumulator += a₀·b₀ + a₁·b₁, 24 of them a round), and the FLOPs it
// reports are the multiply-adds that loop did, two FLOPs each.
func TestBF16PeakComputes(t *testing.T) {
	if BF16PeakKernel == "" {
		t.Skip("no AVX-512 BF16 on this CPU")
	}
	bf := toBF16 // exact for these small integers
	var a, b [16]uint32
	for i := range a { // lane i: (i+1, -2)·(3, i%5) = 3i + 3 - 2(i%5)
		a[i] = bf(float32(i+1)) | bf(-2)<<16
		b[i] = bf(3) | bf(float32(i%5))<<16
	}
	for _, rounds := range []int{1, 7, 1000} {
		var sum [16]float32
		flops := bf16PeakRun(rounds, &a, &b, &sum)

		var acc [24][16]float32 // the scalar loop: 24 accumulators, sixteen lanes
		madds := 0
		for r := 0; r < rounds; r++ {
			for c := range acc {
				for i := range acc[c] {
					a0, a1 := math.Float32frombits(a[i]<<16), math.Float32frombits(a[i]&0xffff0000)
					b0, b1 := math.Float32frombits(b[i]<<16), math.Float32frombits(b[i]&0xffff0000)
					acc[c][i] += a1 * b1
					acc[c][i] += a0 * b0
					madds += 2
				}
			}
		}
		for i := range sum {
			var want float32
			for c := range acc {
				want += acc[c][i]
			}
			if sum[i] != want {
				t.Errorf("%d rounds, lane %d: the kernel's sum %g, the scalar loop's %g", rounds, i, sum[i], want)
			}
		}
		if want := 2 * float64(madds); flops != want {
			t.Errorf("%d rounds: %g FLOPs reported, the scalar loop did %d multiply-adds (%g FLOPs)", rounds, flops, madds, want)
		}
	}
	var sum [16]float32
	if f := bf16PeakRun(0, &a, &b, &sum); f != 0 || sum != [16]float32{} {
		t.Errorf("0 rounds: %g FLOPs, sum %v; want 0 and zeros", f, sum)
	}
}
