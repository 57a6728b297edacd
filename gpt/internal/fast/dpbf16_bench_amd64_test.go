package fast

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkKernel12x32 is the VDPBF16PS micro-kernel in L1 (a 12×256-pair tile against a
// 256×32-pair panel) on one core and on two at once, next to the bf16 peak (24 independent
// VDPBF16PS a round, BF16Peak).
func BenchmarkKernel12x32(b *testing.B) {
	if !HasAVX512BF16 {
		b.Skip("no AVX-512 BF16")
	}
	const kc2 = 128
	for _, par := range []int{1, 2} {
		b.Run(fmt.Sprintf("cores=%d", par), func(b *testing.B) {
			onCores(par, func() {
				a, p, c := make([]uint32, mr2*kc2), make([]uint32, nr2*kc2), make([]float32, mr2*nr2)
				for i := 0; i < b.N; i++ {
					kern12x32(kc2, &a[0], &p[0], &c[0], nr2, nil)
				}
			})
			b.ReportMetric(float64(par)*2*mr2*nr2*2*kc2*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("peak/cores=%d", par), func(b *testing.B) {
			onCores(par, func() { BF16Peak(b.N) })
			b.ReportMetric(float64(par)*bf16PeakChains*16*4*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkGemm16Forward is the five products of a forward of GPT-2 small over 1,024
// positions with bfloat16 weights: VDPBF16PS ("dp", AVX-512 BF16), the AVX2 sgemm widening
// the weights as it packs them ("widen"), and the fp32 sgemm on fp32 weights ("fp32").
func BenchmarkGemm16Forward(b *testing.B) {
	if !HasAVX2 {
		b.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(4, 4))
	const N, C = 1024, 768
	shapes := []struct {
		name  string
		K, OC int
		tB    bool
	}{
		{"c_attn", C, 3 * C, false}, {"attn.c_proj", C, C, false}, {"c_fc", C, 4 * C, false},
		{"mlp.c_proj", 4 * C, C, false}, {"logits", C, 50257, true},
	}
	for _, s := range shapes {
		inp := randomSlice(rng, N*s.K, 1)
		w := randomSlice(rng, s.K*s.OC, 0.02)
		w16 := make([]uint16, len(w))
		for i, x := range w {
			w16[i] = uint16(toBF16(x))
		}
		out := make([]float32, N*s.OC)
		ldb := s.OC
		if s.tB {
			ldb = s.K
		}
		flops := 2 * float64(N*s.K*s.OC)
		run := func(name string, f func()) {
			b.Run(s.name+"/"+name, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					f()
				}
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
		if HasAVX512BF16 {
			run("dp", func() { dpGemmBias16(s.tB, N, s.OC, s.K, inp, s.K, w16, ldb, nil, out, s.OC) })
		}
		run("widen", func() { sgemmBias16(s.tB, N, s.OC, s.K, inp, s.K, w16, ldb, nil, out, s.OC) })
		run("fp32", func() { sgemmBias(s.tB, N, s.OC, s.K, inp, s.K, w, ldb, nil, out, s.OC) })
	}
}
