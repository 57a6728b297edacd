package fast

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// BlockMax, on every path, against the largest of each block found one element at a time
// (bit for bit: -0 and +0 compare equal, and a block of only zeros may report either), and
// its verdict on finiteness against x-x for one NaN or infinity anywhere, at lengths around
// the block.
func TestBlockMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	defer func(v bool) { HasAVX2 = v }(HasAVX2)
	for _, avx := range []bool{false, HasAVX2} {
		HasAVX2 = avx
		for _, n := range []int{1, 7, 63, 64, 65, 128, 1000, 50257} {
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(math.Round(rng.NormFloat64()*8) / 4) // ties, zeros of both signs
				if x[i] == 0 && rng.IntN(2) == 0 {
					x[i] = float32(math.Copysign(0, -1))
				}
			}
			x[rng.IntN(n)] = -math.MaxFloat32 // the extremes are finite
			x[rng.IntN(n)] = math.MaxFloat32
			dst := make([]float32, (n+MaxBlock-1)/MaxBlock)
			if !BlockMax(dst, x) {
				t.Fatalf("avx2=%v n=%d: finite logits reported not finite", avx, n)
			}
			for b := range dst {
				want := slices.Max(x[b*MaxBlock : min((b+1)*MaxBlock, n)])
				if dst[b] != want {
					t.Fatalf("avx2=%v n=%d: block %d max %v, want %v", avx, n, b, dst[b], want)
				}
			}
			for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
				for _, at := range []int{0, n / 2, n - 1} {
					y := slices.Clone(x)
					y[at] = bad
					if BlockMax(dst, y) {
						t.Errorf("avx2=%v n=%d: %v at %d reported finite", avx, n, bad, at)
					}
				}
			}
		}
	}
}

// SumExp is ExpSum's sum bit for bit, on every path, and leaves x as it is.
func TestSumExp(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	defer func(v bool) { HasAVX2 = v }(HasAVX2)
	for _, avx := range []bool{false, HasAVX2} {
		HasAVX2 = avx
		for _, n := range []int{0, 1, 7, 8, 9, 81, 1024} {
			x := randomSlice(rng, n, 5)
			x = append(x, -200, 80)
			shift := float32(rng.Float64() * 3)
			kept := slices.Clone(x)
			got := SumExp(x, shift)
			if !slices.Equal(x, kept) {
				t.Fatalf("avx2=%v n=%d: SumExp changed x", avx, n)
			}
			if want := ExpSum(kept, shift); math.Float32bits(got) != math.Float32bits(want) {
				t.Errorf("avx2=%v n=%d: SumExp %v, ExpSum %v", avx, n, got, want)
			}
		}
	}
}
