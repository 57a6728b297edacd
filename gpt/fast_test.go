package gpt

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// naive runs f with every step on the readable side of the seam (useFast false).
func naive(f func()) {
	defer func(v bool) { useFast = v }(useFast)
	useFast = false
	f()
}

// setAVX2 lets a test run the fast kernels' portable paths on a CPU that has AVX2.
func setAVX2(v bool) { fast.HasAVX2 = v }

// The readable steps, as the references the fast kernels are compared with.
func matmulNaive(out, inp, w, bias []float32, N, C, OC int) {
	naive(func() { matmulForward(out, inp, w, bias, N, C, OC) })
}
func logitsNaive(out, inp, wte []float32, N, C, V int) {
	naive(func() { logitsForward(out, inp, wte, N, C, V) })
}
func attentionNaive(out, att, qkv []float32, B, T, C, NH int, bf16 bool) {
	naive(func() { attentionForward(out, att, qkv, B, T, C, NH, bf16) })
}
func geluNaive(out, inp []float32, N int) { naive(func() { geluForward(out, inp, N) }) }

// A whole forward and backward through the readable side of the seam against the fast
// side: the loss, the logits and the gradient of every parameter, on a small model with
// two sequences long enough to cross the fast attention's blocks of queries, with heads of
// 16 channels (the packed attention's path where the CPU has AVX2).
func TestNaiveMatchesFast(t *testing.T) {
	cfg := Config{VocabSize: 512, BlockSize: 160, Layers: 2, Heads: 2, Channels: 32}
	rng := rand.New(rand.NewPCG(5, 6))
	B, T := 2, 150
	ids, tgt := make([][]int, B), make([][]int, B)
	for b := range ids {
		seq := randomIDs(rng, T+1, cfg.VocabSize)
		ids[b], tgt[b] = seq[:T], seq[1:]
	}
	run := func() (*Output, []float32) { return forwardBackward(t, cfg, 5, ids, tgt) }
	fastOut, fastGrads := run()
	var slowOut *Output
	var slowGrads []float32
	naive(func() { slowOut, slowGrads = run() })
	if d := abs32(fastOut.Loss - slowOut.Loss); d > 1e-5 {
		t.Errorf("loss: fast %.7f, naive %.7f, |diff| %g", fastOut.Loss, slowOut.Loss, d)
	}
	if d := maxDiff(fastOut.Logits, slowOut.Logits); d > 1e-4 {
		t.Errorf("logits: max |diff| %g", d)
	}
	scale := float32(0)
	for _, g := range slowGrads {
		scale = max(scale, abs32(g))
	}
	d := maxDiff(fastGrads, slowGrads)
	t.Logf("fast vs naive: loss %.6f vs %.6f, logits max |diff| %.3g, grads max |diff| %.3g (largest |grad| %.3g)",
		fastOut.Loss, slowOut.Loss, maxDiff(fastOut.Logits, slowOut.Logits), d, scale)
	if d > 1e-4*float64(scale) {
		t.Errorf("gradients: max |diff| %g (largest |grad| %g)", d, scale)
	}
}

// forwardBackward is one forward with targets and one backward of a fresh test model of cfg
// (newTestModel with seed) over ids: its output and its gradients.
func forwardBackward(t *testing.T, cfg Config, seed uint64, ids, tgt [][]int) (*Output, []float32) {
	m := newTestModel(t, cfg, seed)
	out, err := m.Forward(ids, tgt)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Backward(); err != nil {
		t.Fatal(err)
	}
	return out, m.Grads.Data
}

// The cached forward (a prompt of 17 positions, on the sgemm; then one position, and 2, 3
// and 4, which run on the one-row kernels a row at a time; then 5, 11 and 16, which run on
// the few-rows kernel where the CPU has it) through both sides of the seam, in fp32 and
// bf16: on Tiny, and on a model wide enough that the one-row products and the output layer
// are split over two cores (C/64 ≥ 2, V ≥ 2·1024).
func TestNaiveMatchesFastCached(t *testing.T) {
	wide := Config{VocabSize: 2560, BlockSize: 64, Layers: 2, Heads: 2, Channels: 128}
	for _, cfg := range []Config{Tiny, wide} {
		for _, p := range []Precision{FP32, BF16} {
			m := newTestModel(t, cfg, 6)
			if p == BF16 {
				m = m.WithPrecision(BF16)
			}
			ids := randomIDs(rand.New(rand.NewPCG(6, 6)), cfg.BlockSize, cfg.VocabSize)
			run := func() []float32 {
				c := m.NewCache()
				var all []float32
				for start, n := range chunks(17, 1, 2, 3, 4, 5, 11, 16, 5) {
					logits, err := m.ForwardCached(c, ids[start:start+n])
					if err != nil {
						t.Fatal(err)
					}
					all = append(all, logits...)
				}
				few, err := m.ForwardAll([][]int{ids[:3]}) // every position's logits: the output layer of 3 rows
				if err != nil {
					t.Fatal(err)
				}
				return append(all, few.Logits...)
			}
			got := run()
			var want []float32
			naive(func() { want = run() })
			d, scale := maxDiff(got, want), 0.0
			for _, x := range want {
				scale = math.Max(scale, math.Abs(float64(x)))
			}
			t.Logf("C %d, %v: cached fast vs naive: max |diff| %.3g (largest |logit| %.3g)", cfg.Channels, p, d, scale)
			tol := 1e-4 // bf16: a few bfloat16 steps of the largest logit, as TestBF16PathsMatchNaive
			if p == BF16 {
				tol = 0.01 * scale
			}
			if len(got) != len(want) || d > tol {
				t.Errorf("C %d, %v: cached logits: %d vs %d numbers, max |diff| %g, want ≤ %g", cfg.Channels, p, len(got), len(want), d, tol)
			}
		}
	}
}

// chunks yields the start and the length of consecutive chunks of the given lengths.
func chunks(lengths ...int) func(yield func(int, int) bool) {
	return func(yield func(int, int) bool) {
		start := 0
		for _, n := range lengths {
			if !yield(start, n) {
				return
			}
			start += n
		}
	}
}

// cpuPaths are the instruction paths of the fast kernels this machine can run, from the
// portable one up: "go", "neon" (arm64), "avx2", "avx512" (AVX-512 with BF16). use switches
// to one of them and returns a function that restores the CPU's own.
func cpuPaths() []string {
	paths := []string{"go"}
	if fast.HasNEON {
		paths = append(paths, "neon")
	}
	if fast.HasAVX2 {
		paths = append(paths, "avx2")
	}
	if fast.HasAVX512BF16 {
		paths = append(paths, "avx512")
	}
	return paths
}

func useCPUPath(path string) (restore func()) {
	neon, avx2, avx512 := fast.HasNEON, fast.HasAVX2, fast.HasAVX512BF16
	fast.HasNEON = path == "neon"
	fast.HasAVX2, fast.HasAVX512BF16 = path == "avx2" || path == "avx512", path == "avx512"
	return func() { fast.HasNEON, fast.HasAVX2, fast.HasAVX512BF16 = neon, avx2, avx512 }
}
