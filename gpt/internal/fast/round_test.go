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

// bfloat16s, on VCVTNEPS2BF16 where the CPU has AVX-512 BF16 and one value at a time
// otherwise, bit for bit against toBF16 on the values of TestRoundBF16MatchesScalar, at
// lengths that leave a tail after the sixteens; the instruction takes subnormals as zero
// (keeping the sign), as the VDPBF16PS products the rounded values feed do.
func TestBfloat16sMatchesScalar(t *testing.T) {
	special := []uint32{
		0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001,
		0x7fbfffff, 0x7f7fffff, 0xff7fffff, 0x7f7f8000, 0x00000001, 0x807fffff, 0x00008000,
		0x3f808000, 0x3f818000, 0x3f80ffff, 0x3f807fff, 0x3f800001, 0x4049_0fdb,
	}
	rng := rand.New(rand.NewPCG(1, 3))
	bits := append([]uint32(nil), special...)
	for range 1 << 20 {
		bits = append(bits, rng.Uint32())
	}
	defer func(v bool) { HasAVX512BF16 = v }(HasAVX512BF16)
	for _, avx := range []bool{false, HasAVX512BF16} {
		HasAVX512BF16 = avx
		for _, n := range []int{len(bits), 15, 16, 37} {
			x := make([]float32, n)
			for i := range x {
				x[i] = math.Float32frombits(bits[i])
			}
			xb := bfloat16s(x)
			for i, h := range *xb {
				b := bits[i]
				want := uint16(toBF16(math.Float32frombits(b)))
				if avx && b&0x7f800000 == 0 && i < n&^15 { // a subnormal: zero, signed
					want = uint16(b >> 16 & 0x8000)
				}
				if h != want {
					t.Fatalf("avx512=%v: bfloat16s(%#08x) = %#04x, want %#04x", avx, b, h, want)
				}
			}
			halves.Put(xb)
		}
	}
}
