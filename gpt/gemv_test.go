package gpt

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The one-row kernels against the naive loops, on shapes that leave the assembly tails of
// rows (not a multiple of 4) and of columns (not a multiple of 8 or 32), on every path of the
// CPU (Go loops, AVX2 or NEON).
func TestGemvMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, path := range cpuPaths() {
		restore := useCPUPath(path)
		for _, s := range [][2]int{{1, 1}, {3, 7}, {4, 8}, {5, 9}, {48, 200}, {192, 576}, {67, 1061}, {768, 2304}} {
			C, OC := s[0], s[1]
			inp, w, bias := randomSlice(rng, C, 1), randomSlice(rng, C*OC, 0.1), randomSlice(rng, OC, 0.1)
			for _, b := range [][]float32{bias, nil} {
				got, want := randomSlice(rng, OC, 1), make([]float32, OC) // got starts dirty
				matmulForward(got, inp, w, b, 1, C, OC)
				matmulNaive(want, inp, w, b, 1, C, OC)
				if d := maxDiff(got, want); d > 1e-4 {
					t.Errorf("path %s conv1d C=%d OC=%d bias=%v: max |diff| %g", path, C, OC, b != nil, d)
				}
			}
			V := OC // the output layer: (V, C) rows, one dot product each
			wte := randomSlice(rng, V*C, 0.1)
			got, want := randomSlice(rng, V, 1), make([]float32, V)
			logitsForward(got, inp, wte, 1, C, V)
			logitsNaive(want, inp, wte, 1, C, V)
			if d := maxDiff(got, want); d > 1e-4 {
				t.Errorf("path %s logits C=%d V=%d: max |diff| %g", path, C, V, d)
			}
		}
		restore()
	}
}

// The products of 5 to 16 rows (a short prompt's: the few-rows kernel where the CPU has it,
// the sgemm elsewhere) against the naive loops, fp32 and bf16, on every path of the CPU,
// on shapes that leave a partial tile of six rows, columns past the panels of sixteen,
// a shared dimension past the kernel's four-step rounds and past 768 (blocks added up).
func TestFewRowsMatchNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 7))
	for _, path := range cpuPaths() {
		restore := useCPUPath(path)
		for N := 5; N <= 16; N++ {
			for _, s := range [][2]int{{13, 40}, {67, 96}, {130, 35}, {770, 48}} {
				C, OC := s[0], s[1]
				inp, w, bias := randomSlice(rng, N*C, 1), randomSlice(rng, C*OC, 0.1), randomSlice(rng, OC, 0.1)
				w16 := randomBF16(rng, C*OC, 0.1)
				for _, b := range [][]float32{bias, nil} {
					got, want := randomSlice(rng, N*OC, 1), make([]float32, N*OC) // got starts dirty
					matmulForward(got, inp, w, b, N, C, OC)
					matmulNaive(want, inp, w, b, N, C, OC)
					if d := maxDiff(got, want); d > 1e-4 {
						t.Errorf("path %s conv1d N=%d C=%d OC=%d bias=%v: max |diff| %g", path, N, C, OC, b != nil, d)
					}
					in16 := append([]float32(nil), inp...)
					roundBF16(in16) // a BF16 model's activations: the AVX-512 path multiplies them as bfloat16
					got, want = randomSlice(rng, N*OC, 1), make([]float32, N*OC)
					matmulForward16(got, in16, w16, b, N, C, OC)
					naive(func() { matmulForward16(want, in16, w16, b, N, C, OC) })
					if d := maxDiff(got, want); d > 1e-4 {
						t.Errorf("path %s bf16 conv1d N=%d C=%d OC=%d bias=%v: max |diff| %g", path, N, C, OC, b != nil, d)
					}
				}
			}
		}
		restore()
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

// randomBF16 is n bfloat16 values of randomSlice(rng, n, scale), rounded.
func randomBF16(rng *rand.Rand, n int, scale float64) []uint16 {
	h := make([]uint16, n)
	for i, x := range randomSlice(rng, n, scale) {
		h[i] = float32ToBF16(x)
	}
	return h
}

// The bfloat16 products against their readable loops, on every instruction path this
// machine has (portable Go, AVX2, AVX-512), with one row (the gemv kernels) and with
// several (the sgemm, widening as it packs; VDPBF16PS on pairs, for one row as for many),
// on shapes that leave every kernel's tails.
func TestMatmul16MatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, path := range cpuPaths() {
		restore := useCPUPath(path)
		for _, s := range [][3]int{{1, 1, 1}, {1, 3, 7}, {1, 4, 8}, {1, 5, 17}, {1, 48, 200}, {1, 192, 576}, {1, 67, 1061}, {1, 768, 2304},
			{2, 5, 17}, {7, 67, 100}, {13, 300, 70}, {40, 96, 200}, {300, 901, 100}, {30, 900, 600}} {
			N, C, OC := s[0], s[1], s[2]
			inp, w, bias := randomSlice(rng, N*C, 1), randomBF16(rng, C*OC, 0.1), randomSlice(rng, OC, 0.1)
			roundBF16(inp) // a BF16 model's activations: the AVX-512 path multiplies them as bfloat16
			for _, b := range [][]float32{bias, nil} {
				got, want := randomSlice(rng, N*OC, 1), make([]float32, N*OC) // got starts dirty
				matmulForward16(got, inp, w, b, N, C, OC)
				naive(func() { matmulForward16(want, inp, w, b, N, C, OC) })
				if d := maxDiff(got, want); d > 1e-4 {
					t.Errorf("%s conv1d N=%d C=%d OC=%d bias=%v: max |diff| %g", path, N, C, OC, b != nil, d)
				}
			}
			V := OC // the output layer: (V, C) rows, one dot product each
			wte := randomBF16(rng, V*C, 0.1)
			got, want := randomSlice(rng, N*V, 1), make([]float32, N*V)
			logitsForward16(got, inp, wte, N, C, V)
			naive(func() { logitsForward16(want, inp, wte, N, C, V) })
			if d := maxDiff(got, want); d > 1e-4 {
				t.Errorf("%s logits N=%d C=%d V=%d: max |diff| %g", path, N, C, V, d)
			}
		}
		restore()
	}
}

// BenchmarkGemv16 is BenchmarkGemv with bfloat16 weights, on each instruction path, in GB/s
// of weights read.
func BenchmarkGemv16(b *testing.B) {
	rng := rand.New(rand.NewPCG(8, 8))
	C, V := 768, 50257
	for _, path := range cpuPaths()[1:] {
		for _, s := range [][2]int{{C, 3 * C}, {C, 4 * C}, {4 * C, C}} {
			in, out := s[0], s[1]
			x, w := randomSlice(rng, in, 1), randomBF16(rng, in*out*16, 0.02) // 16 copies: past the cache
			y := make([]float32, out)
			b.Run(fmt.Sprintf("%s/conv1d/%dx%d", path, in, out), func(b *testing.B) {
				defer useCPUPath(path)()
				for i := 0; i < b.N; i++ {
					k := i % 16
					matmulForward16(y, x, w[k*in*out:(k+1)*in*out], nil, 1, in, out)
				}
				b.ReportMetric(float64(2*in*out)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
			})
		}
		x, wte := randomSlice(rng, C, 1), randomBF16(rng, V*C, 0.02)
		y := make([]float32, V)
		b.Run(path+"/logits/50257x768", func(b *testing.B) {
			defer useCPUPath(path)()
			for i := 0; i < b.N; i++ {
				logitsForward16(y, x, wte, 1, C, V)
			}
			b.ReportMetric(float64(2*V*C)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
}
