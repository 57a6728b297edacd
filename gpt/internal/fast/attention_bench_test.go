package fast

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkAttentionDecode is the attention of a cached decode step of GPT-2 Small: one new
// query over P cached positions, 12 heads of 64 channels, in each of its 12 layers (what
// gpt.MeasureDecodeStages times as "attention over the cache"), fp32 and bf16. Before each
// step the benchmark reads 64 MB of other memory, untimed, as the step's weights do between
// two layers' attention: the cache comes from memory, not from the core's caches. ns/op is
// a step's 12 layers; GB/s is the cache's bytes (2·L·P·C numbers) over that time. Run it
// with GOMAXPROCS=1 and 2 (not -cpu: the team of helpers is sized at its first use).
func BenchmarkAttentionDecode(b *testing.B) {
	const L, C, NH = 12, 768, 12
	rng := rand.New(rand.NewPCG(5, 0))
	evict := make([]float32, 64<<20/4)
	evictY, evictX := make([]float32, len(evict)/1024), make([]float32, 1024)
	qkv, out := randomSlice(rng, 3*C, 1), make([]float32, C)
	for _, bf16 := range []bool{false, true} {
		for _, P := range []int{16, 128, 512, 1024} {
			name, size := "fp32", 4
			if bf16 {
				name, size = "bf16", 2
			}
			b.Run(fmt.Sprintf("%s/P=%d", name, P), func(b *testing.B) {
				// The slab as gpt.KVCache holds it: (L, 2, P, C), per layer its keys then its values.
				var slab []float32
				var slab16 []uint16
				if bf16 {
					slab16 = make([]uint16, 2*L*P*C)
					for i := range slab16 {
						slab16[i] = uint16(toBF16(float32(rng.NormFloat64())))
					}
				} else {
					slab = randomSlice(rng, 2*L*P*C, 1)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					StreamRead(evictY, evictX, evict)
					b.StartTimer()
					for l := 0; l < L; l++ {
						k, v := 2*l*P*C, (2*l+1)*P*C
						if bf16 {
							AttentionCached16(out, qkv, slab16[k:k+P*C], slab16[v:v+P*C], 1, P-1, C, NH)
						} else {
							AttentionCached(out, qkv, slab[k:k+P*C], slab[v:v+P*C], 1, P-1, C, NH, false)
						}
					}
				}
				b.ReportMetric(float64(2*L*P*C*size)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
			})
		}
	}
}
