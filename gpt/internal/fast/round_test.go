package fast

import (
	"math"
	"math/rand/v2"
	"testing"
)

// RoundBF16, on every path, bit for bit against toBF16 one value at a time: NaNs of both
// signs (quiet and signalling), infinities, the largest floats (which round up to infinity),
// subnormals, ties both ways, and a million random bit patterns, at lengths that leave a
// tail after the eights.
func TestRoundBF16MatchesScalar(t *testing.T) {
	special := []uint32{
		0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001,
		0x7fbfffff, 0x7f7fffff, 0xff7fffff, 0x7f7f8000, 0x00000001, 0x807fffff, 0x00008000,
		0x3f808000, 0x3f818000, 0x3f80ffff, 0x3f807fff, 0x3f800001, 0x4049_0fdb,
	}
	rng := rand.New(rand.NewPCG(1, 2))
	bits := append([]uint32(nil), special...)
	for range 1 << 20 {
		bits = append(bits, rng.Uint32())
	}
	defer func(v bool) { HasAVX2 = v }(HasAVX2)
	for _, avx := range []bool{false, HasAVX2} {
		HasAVX2 = avx
		for _, n := range []int{len(bits), 7, 8, 13} {
			x := make([]float32, n)
			for i := range x {
				x[i] = math.Float32frombits(bits[i])
			}
			RoundBF16(x)
			for i, f := range x {
				if got, want := math.Float32bits(f), toBF16(math.Float32frombits(bits[i]))<<16; got != want {
					t.Fatalf("avx2=%v: RoundBF16(%#08x) = %#08x, want %#08x", avx, bits[i], got, want)
				}
			}
		}
	}
}
