package gpt

import (
	"github.com/gptnotes/gptnotes/gpt/internal/fast"

	"fmt"
	"math/rand/v2"
	"testing"
)

// attentionPacked against the float64 loops, with and without the probabilities, over
// lengths that leave partial query tiles, key panels and blocks; in fp32 and with bf16's
// roundings (scores and probabilities rounded to bfloat16, on bfloat16 inputs), where a
// score summed in another order may round to the neighbouring bfloat16: the tolerance is
// a few bfloat16 steps.
func TestAttentionPackedMatchesNaive(t *testing.T) {
	if !fast.HasAVX2 {
		t.Skip("attentionPacked needs AVX2 and FMA; this CPU takes the BLAS path")
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for _, s := range [][3]int{{1, 16, 1}, {2, 32, 2}, {7, 64, 2}, {17, 128, 2}, {61, 64, 1}, {150, 192, 3}, {301, 128, 2}} {
		T, C, NH := s[0], s[1], s[2]
		B := 2
		t.Run(fmt.Sprintf("T=%d,C=%d,NH=%d", T, C, NH), func(t *testing.T) {
			if (C/NH)%16 != 0 {
				t.Fatalf("head size %d should take the packed path", C/NH)
			}
			for _, bf16 := range []bool{false, true} {
				qkv := randomSlice(rng, B*T*3*C, 1)
				tolOut, tolAtt := 1e-5, 1e-6
				if bf16 {
					roundBF16(qkv)
					tolOut, tolAtt = 0.02, 0.004
				}
				got, want := randomSlice(rng, B*T*C, 1), make([]float32, B*T*C) // got starts dirty
				gotAtt, wantAtt := randomSlice(rng, B*NH*T*T, 1), make([]float32, B*NH*T*T)
				attentionForward(got, gotAtt, qkv, B, T, C, NH, bf16)
				attentionNaive(want, wantAtt, qkv, B, T, C, NH, bf16)
				if d := maxDiff(got, want); d > tolOut {
					t.Errorf("bf16=%v out: max |diff| %g", bf16, d)
				}
				if d := maxDiff(gotAtt, wantAtt); d > tolAtt {
					t.Errorf("bf16=%v att: max |diff| %g", bf16, d)
				}
				if bf16 {
					t.Logf("bf16: out max |diff| %.3g, att max |diff| %.3g", maxDiff(got, want), maxDiff(gotAtt, wantAtt))
				}
				noAtt := make([]float32, B*T*C)
				attentionForward(noAtt, nil, qkv, B, T, C, NH, bf16)
				if d := maxDiff(noAtt, want); d > tolOut {
					t.Errorf("bf16=%v out without att: max |diff| %g", bf16, d)
				}
			}
		})
	}
}

// BenchmarkAttentionSmall1024 is one layer of GPT-2 Small's attention over 1,024 positions
// (the causal half of its two products).
func BenchmarkAttentionSmall1024(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	T, C, NH := 1024, 768, 12
	qkv := randomSlice(rng, T*3*C, 1)
	out := make([]float32, T*C)
	for i := 0; i < b.N; i++ {
		attentionForward(out, nil, qkv, 1, T, C, NH, false)
	}
	flops := 2 * 2 * float64(T*(T+1)/2) * float64(C)
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
