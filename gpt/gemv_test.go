package gpt

import (
	"github.com/gptnotes/gptnotes/gpt/internal/fast"

	"fmt"
	"math/rand/v2"
	"testing"
)

// The one-row kernels against the naive loops, on shapes that leave the assembly tails of
// rows (not a multiple of 4) and of columns (not a multiple of 8 or 32), with and without AVX2.
func TestGemvMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	paths := []bool{false}
	if fast.HasAVX2 {
		paths = append(paths, true)
	}
	defer func(v bool) { setAVX2(v) }(fast.HasAVX2)
	for _, avx := range paths {
		setAVX2(avx)
		for _, s := range [][2]int{{1, 1}, {3, 7}, {4, 8}, {5, 9}, {48, 200}, {192, 576}, {67, 1061}, {768, 2304}} {
			C, OC := s[0], s[1]
			inp, w, bias := randomSlice(rng, C, 1), randomSlice(rng, C*OC, 0.1), randomSlice(rng, OC, 0.1)
			for _, b := range [][]float32{bias, nil} {
				got, want := randomSlice(rng, OC, 1), make([]float32, OC) // got starts dirty
				matmulForward(got, inp, w, b, 1, C, OC)
				matmulNaive(want, inp, w, b, 1, C, OC)
				if d := maxDiff(got, want); d > 1e-4 {
					t.Errorf("avx2=%v conv1d C=%d OC=%d bias=%v: max |diff| %g", avx, C, OC, b != nil, d)
				}
			}
			V := OC // the output layer: (V, C) rows, one dot product each
			wte := randomSlice(rng, V*C, 0.1)
			got, want := randomSlice(rng, V, 1), make([]float32, V)
			logitsForward(got, inp, wte, 1, C, V)
			logitsNaive(want, inp, wte, 1, C, V)
			if d := maxDiff(got, want); d > 1e-4 {
				t.Errorf("avx2=%v logits C=%d V=%d: max |diff| %g", avx, C, V, d)
			}
		}
	}
}

// BenchmarkGemv is each one-row product of GPT-2 Small's decode step, in GB/s of weights read.
func BenchmarkGemv(b *testing.B) {
	rng := rand.New(rand.NewPCG(8, 8))
	C, V := 768, 50257
	for _, s := range [][2]int{{C, 3 * C}, {C, C}, {C, 4 * C}, {4 * C, C}} {
		in, out := s[0], s[1]
		x, w := randomSlice(rng, in, 1), randomSlice(rng, in*out*16, 0.02) // 16 copies: past the cache
		y := make([]float32, out)
		b.Run(fmt.Sprintf("conv1d/%dx%d", in, out), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				k := i % 16
				matmulForward(y, x, w[k*in*out:(k+1)*in*out], nil, 1, in, out)
			}
			b.ReportMetric(float64(4*in*out)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
	x, wte := randomSlice(rng, C, 1), randomSlice(rng, V*C, 0.02)
	y := make([]float32, V)
	b.Run("logits/50257x768", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			logitsForward(y, x, wte, 1, C, V)
		}
		b.ReportMetric(float64(4*V*C)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
	})
}
