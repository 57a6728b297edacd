package fast

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// BenchmarkKernel is the micro-kernel in L1 (a 6×256 tile against a 256×16 panel) on one
// core and on two at once, next to the cores' FMA peak (twelve independent FMAs a round).
func BenchmarkKernel(b *testing.B) {
	const kc = 256
	for _, par := range []int{1, 2} {
		b.Run(fmt.Sprintf("kern6x16/cores=%d", par), func(b *testing.B) {
			onCores(par, func() {
				a, p, c := make([]float32, mr*kc), make([]float32, nr*kc), make([]float32, mr*nr)
				for i := 0; i < b.N; i++ {
					kern6x16(kc, &a[0], &p[0], &c[0], nr, nil)
				}
			})
			b.ReportMetric(float64(par)*2*mr*nr*kc*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("peak/cores=%d", par), func(b *testing.B) {
			onCores(par, func() { fmaPeak(b.N) })
			b.ReportMetric(float64(par)*12*2*8*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// onCores runs fn on n goroutines at once and waits for them.
func onCores(n int, fn func()) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); fn() }()
	}
	wg.Wait()
}

// BenchmarkGemmForward runs the five products of a forward of GPT-2 small over 1,024
// positions through the library under fastBLAS, split over the cores along the output's
// longer side ("blas": OpenBLAS with -tags openblas, single-threaded, or gonum's own Sgemm),
// and through fastSgemm ("fast").
func BenchmarkGemmForward(b *testing.B) {
	if !HasAVX2 {
		b.Skip("no AVX2")
	}
	base := impl.(fastBLAS).Float32
	rng := rand.New(rand.NewPCG(4, 4))
	const N, C = 1024, 768
	shapes := []struct {
		name  string
		K, OC int
		tB    bool // the output layer reads wte (V, C) transposed
	}{
		{"c_attn", C, 3 * C, false}, {"attn.c_proj", C, C, false}, {"c_fc", C, 4 * C, false},
		{"mlp.c_proj", 4 * C, C, false}, {"logits", C, 50257, true},
	}
	for _, s := range shapes {
		inp := randomSlice(rng, N*s.K, 1)
		w := randomSlice(rng, s.K*s.OC, 0.02)
		out := make([]float32, N*s.OC)
		ldb, tB := s.OC, blas.NoTrans
		if s.tB {
			ldb, tB = s.K, blas.Trans
		}
		flops := 2 * float64(N*s.K*s.OC)
		b.Run(s.name+"/blas", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				product := func(r0, r1, c0, c1 int) {
					wb := w[c0:]
					if s.tB {
						wb = w[c0*s.K:]
					}
					base.Sgemm(blas.NoTrans, tB, r1-r0, c1-c0, s.K,
						1, inp[r0*s.K:], s.K, wb, ldb, 0, out[r0*s.OC+c0:], s.OC)
				}
				if N >= s.OC {
					Chunks(N, 16, func(lo, hi int) { product(lo, hi, 0, s.OC) })
				} else {
					Chunks(s.OC, 64, func(lo, hi int) { product(0, N, lo, hi) })
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(s.name+"/fast", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				fastSgemm(false, s.tB, N, s.OC, s.K, 1, inp, s.K, w, ldb, 0, out, s.OC)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
