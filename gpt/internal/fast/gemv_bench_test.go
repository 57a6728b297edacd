package fast

import "testing"

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
