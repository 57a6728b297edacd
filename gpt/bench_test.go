package gpt

import (
	"github.com/gptnotes/gptnotes/gpt/internal/fast"
	"math"

	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// forwardFLOPs counts the multiply-adds ×2 of a forward over T positions with all logits:
// the matrix products (c_attn, attn.c_proj, c_fc, mlp.c_proj per block, and the output
// layer) plus the causal half of attention's two products.
func forwardFLOPs(cfg Config, T int) float64 {
	C, L, V := float64(cfg.Channels), float64(cfg.Layers), float64(cfg.VocabSize)
	t := float64(T)
	matmuls := 2 * t * (L*12*C*C + V*C)
	attention := L * 2 * 2 * (t * (t + 1) / 2) * C
	return matmuls + attention
}

var benchSmall *Model

// smallModel is GPT-2 small at GPT-2's init (seed 1337), built once and shared by every
// benchmark of the package.
func smallModel(b *testing.B) *Model {
	if benchSmall == nil {
		m, err := New(Small)
		if err != nil {
			b.Fatal(err)
		}
		m.Init(1337, true)
		benchSmall = m
	}
	return benchSmall
}

// BenchmarkForwardSmall1024 is GPT-2 small over 1,024 positions, all logits, fp32, batch 1:
// the study's "one forward over 1,024 positions" (tests/bench_forward.py runs PyTorch's).
func BenchmarkForwardSmall1024(b *testing.B) {
	m := smallModel(b)
	ids := randomIDs(rand.New(rand.NewPCG(1, 1)), 1024, Small.VocabSize)
	if _, err := m.ForwardAll([][]int{ids}); err != nil { // warm the buffers
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.ForwardAll([][]int{ids}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(forwardFLOPs(Small, 1024)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	if mib := peakRSSMiB(); mib > 0 {
		b.ReportMetric(mib, "peak-RSS-MiB")
	}
}

// BenchmarkForwardSmall1024Precision is BenchmarkForwardSmall1024 in fp32 and in bf16
// (bfloat16 weights, activations rounded to bfloat16) side by side in one run, with the
// best of the iterations:
//
//	go test -tags openblas -run '^$' -bench 'ForwardSmall1024Precision' -benchtime 3x ./gpt/
func BenchmarkForwardSmall1024Precision(b *testing.B) {
	ids := randomIDs(rand.New(rand.NewPCG(1, 1)), 1024, Small.VocabSize)
	for _, p := range []Precision{FP32, BF16} {
		b.Run(p.String(), func(b *testing.B) {
			m := smallModel(b).WithPrecision(p)
			if _, err := m.ForwardAll([][]int{ids}); err != nil { // warm the buffers
				b.Fatal(err)
			}
			b.ResetTimer()
			best := time.Duration(math.MaxInt64)
			for i := 0; i < b.N; i++ {
				t := time.Now()
				if _, err := m.ForwardAll([][]int{ids}); err != nil {
					b.Fatal(err)
				}
				best = min(best, time.Since(t))
			}
			b.ReportMetric(forwardFLOPs(Small, 1024)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			b.ReportMetric(best.Seconds(), "best-s")
		})
	}
}

// peakRSSMiB is the process's peak resident set (VmHWM in /proc/self/status, Linux), or 0.
func peakRSSMiB() float64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkDecodeStepSmall is one cached decode step of GPT-2 small after a 512-token prompt.
func BenchmarkDecodeStepSmall(b *testing.B) {
	benchDecodeStep(b, smallModel(b), 512)
}

// benchDecodeStep times one cached decode step of m after a prompt of n random tokens, the
// cache cut back to n before every step so each step sees the same length.
func benchDecodeStep(b *testing.B, m *Model, n int) {
	ids := randomIDs(rand.New(rand.NewPCG(2, 2)), n+1, m.Config.VocabSize)
	c := m.NewCache()
	if _, err := m.ForwardCached(c, ids[:n]); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.n = n
		if _, err := m.ForwardCached(c, ids[n:]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSoftmax is one attention row of 1,024 keys: max, exponentials, normalisation.
func BenchmarkSoftmax(b *testing.B) {
	x := make([]float32, 1024)
	for i := 0; i < b.N; i++ {
		for j := range x {
			x[j] = -float32(j%200) * 0.1
		}
		fast.Softmax(x)
	}
}

// BenchmarkMatmulCFc is one mlp.c_fc product of GPT-2 small over 1,024 positions,
// (1024, 768)·(768, 3072): what the BLAS reaches on the forward's typical shape.
func BenchmarkMatmulCFc(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	N, C, OC := 1024, 768, 3072
	inp, w, bias := randomSlice(rng, N*C, 1), randomSlice(rng, C*OC, 0.02), randomSlice(rng, OC, 0.02)
	out := make([]float32, N*OC)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		matmulForward(out, inp, w, bias, N, C, OC)
	}
	b.ReportMetric(2*float64(N*C*OC)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
