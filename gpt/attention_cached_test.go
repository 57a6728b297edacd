package gpt

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// The attention of a decode step (one query over P cached positions; the walk over the
// cache's rows of attention_decode.go where the CPU has AVX2, a head at a time otherwise)
// against the readable attend: the last row of the causal attention of P positions is what
// the query at position P-1 computes from a cache holding their keys and values. In fp32
// and in bf16 (a BF16 cache, and an fp32 cache with bf16's roundings), on every CPU path,
// for one position and many, odd counts that leave the walk's last rows one at a time, and
// heads of 64, 16 and 8 channels (the walk's) and of 12 (a head at a time).
func TestAttentionCachedDecodeMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 1))
	for _, path := range cpuPaths() {
		for _, s := range [][2]int{{768, 12}, {128, 2}, {48, 3}, {32, 4}, {24, 2}} {
			C, NH := s[0], s[1]
			for _, P := range []int{1, 2, 3, 5, 7, 17, 64, 129, 300} {
				t.Run(fmt.Sprintf("%s/C=%d,NH=%d/P=%d", path, C, NH, P), func(t *testing.T) {
					defer useCPUPath(path)()
					for _, mode := range []string{"fp32", "fp32 cache, bf16", "bf16"} {
						bf16 := mode != "fp32"
						qkv := randomSlice(rng, P*3*C, 1)
						if bf16 {
							roundBF16(qkv)
						}
						want := make([]float32, P*C)
						attentionNaive(want, nil, qkv, 1, P, C, NH, bf16)
						want = want[(P-1)*C:]

						kc, vc := make([]float32, P*C), make([]float32, P*C)
						kc16, vc16 := make([]uint16, P*C), make([]uint16, P*C)
						for t := 0; t < P; t++ {
							for i := 0; i < C; i++ {
								k, v := qkv[t*3*C+C+i], qkv[t*3*C+2*C+i]
								kc[t*C+i], vc[t*C+i] = k, v
								kc16[t*C+i], vc16[t*C+i] = float32ToBF16(k), float32ToBF16(v)
							}
						}
						got := randomSlice(rng, C, 1) // starts dirty
						q := qkv[(P-1)*3*C : P*3*C]
						if mode == "bf16" {
							fast.AttentionCached16(got, q, kc16, vc16, 1, P-1, C, NH)
						} else {
							fast.AttentionCached(got, q, kc, vc, 1, P-1, C, NH, bf16)
						}
						tol := 1e-5
						if bf16 { // a score summed in another order may round to the next bfloat16
							tol = 0.02
						}
						if d := maxDiff(got, want); d > tol {
							t.Errorf("%s: max |diff| %g, want ≤ %g", mode, d, tol)
						}
					}
				})
			}
		}
	}
}
