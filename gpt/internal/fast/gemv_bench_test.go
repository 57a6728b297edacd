package fast

import (
	"slices"
	"testing"
	"time"
)

// smallParams is GPT-2 Small's parameter count, tied (gpt.Count(gpt.Small)).
const smallParams = 124_439_808

// BenchmarkMemoryStream is the ceiling of a decode step: both cores reading 512 MB once,
// in memory order, with the one-row kernel's dot products (x stays in cache). Its GB/s
// divided into GPT-2 Small's 497.8 MB of fp32 weights (248.9 MB in bf16) is the fastest a
// cached step can go.
func BenchmarkMemoryStream(b *testing.B) {
	const cols = 1024
	rows := (512 << 20) / 4 / cols
	w := make([]float32, rows*cols)
	for i := range w {
		w[i] = 1
	}
	x, y := make([]float32, cols), make([]float32, rows)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Chunks(rows, 1024, func(lo, hi int) { gemvDot(y[lo:hi], x, w[lo*cols:], cols) })
	}
	gbs := float64(4*len(w)) * float64(b.N) / b.Elapsed().Seconds() / 1e9
	b.ReportMetric(gbs, "GB/s")
	b.ReportMetric(gbs*1e9/(4*float64(smallParams)), "Small-tok/s-ceiling")
	b.ReportMetric(gbs*1e9/(2*float64(smallParams)), "Small-bf16-tok/s-ceiling")
}

// BenchmarkStepProducts asks what bounds a decode step of GPT-2 Small: the 48 one-row
// products of its twelve blocks (MatmulForward and MatmulForward16 of one row, as the step
// runs them) against the stream probe reading the same bytes just before (StreamReadWeights),
// with gap of serial work on this core before each product (a busy wait: the LayerNorm,
// attention, GELU and hand-offs a step does between two products while the memory idles).
// of-probe is the products' rate over the probe's, their time alone; step-of-probe counts
// the gaps too (medians over the iterations, as gptnotes bench's paired figure).
func BenchmarkStepProducts(b *testing.B) {
	const L, C = 12, 768
	shapes := [][2]int{{C, 3 * C}, {C, C}, {C, 4 * C}, {4 * C, C}} // c_attn, c_proj, c_fc, mlp.c_proj
	per := 0
	for _, s := range shapes {
		per += s[0] * s[1]
	}
	x, out := make([]float32, 4*C), make([]float32, 4*C)
	for i := range x {
		x[i] = float32(i%5) * 0.25
	}
	const probeCols = 1024
	probeX, probeY := make([]float32, probeCols), make([]float32, L*per/probeCols+1)
	for _, prec := range []string{"bf16", "fp32"} {
		var w32 []float32
		var w16 []uint16
		size := 4
		if prec == "bf16" {
			w16, size = make([]uint16, L*per), 2
			for i := range w16 {
				w16[i] = uint16(0x3f80 + i%7) // 1.0 and its next six bfloat16s
			}
		} else {
			w32 = make([]float32, L*per)
			for i := range w32 {
				w32[i] = 1 + float32(i%7)/128
			}
		}
		product := func(off int, s [2]int) {
			if w16 != nil {
				MatmulForward16(out, x, w16[off:off+s[0]*s[1]], nil, 1, s[0], s[1])
			} else {
				MatmulForward(out, x, w32[off:off+s[0]*s[1]], nil, 1, s[0], s[1])
			}
		}
		bytes := float64(size * L * per)
		for _, gap := range []time.Duration{0, 5 * time.Microsecond, 20 * time.Microsecond} {
			b.Run(prec+"/gap="+gap.String(), func(b *testing.B) {
				var probeRate, productsRate, ofProbe, stepOfProbe []float64
				for range b.N {
					t := time.Now()
					StreamReadWeights(probeY, probeX, w32, w16)
					probe := time.Since(t).Seconds()
					var products time.Duration
					start, off := time.Now(), 0
					for range L {
						for _, s := range shapes {
							for t := time.Now(); time.Since(t) < gap; {
							}
							t := time.Now()
							product(off, s)
							products += time.Since(t)
							off += s[0] * s[1]
						}
					}
					step := time.Since(start).Seconds()
					probeRate = append(probeRate, bytes/probe/1e9)
					productsRate = append(productsRate, bytes/products.Seconds()/1e9)
					ofProbe = append(ofProbe, probe/products.Seconds())
					stepOfProbe = append(stepOfProbe, probe/step)
				}
				median := func(v []float64) float64 { slices.Sort(v); return v[len(v)/2] }
				b.ReportMetric(median(probeRate), "probe-GB/s")
				b.ReportMetric(median(productsRate), "products-GB/s")
				b.ReportMetric(median(ofProbe), "of-probe")
				b.ReportMetric(median(stepOfProbe), "step-of-probe")
			})
		}
	}
}
