package gpt

import (
	"fmt"
	"runtime"
	"testing"
)

// A cached decode step in the steady state allocates nothing: its activations, the cache,
// the kernels' scratch and the logits are all buffers kept from step to step, and the
// parallel regions of the kernels are fast.Regions, which hand no new closure to the cores.
// (The history — the ids, the Steps and their Top lists — grows with the run as append
// grows a slice: a handful of allocations over a hundred steps.)

// allocConfig is small but takes every path GPT-2 Small's decode step takes: heads of 64
// channels, each one-row product split over two cores (C/64 ≥ 2), the output layer too
// (V ≥ 2·1024).
var allocConfig = Config{VocabSize: 4096, BlockSize: 256, Layers: 2, Heads: 2, Channels: 128}

// allocModel is allocConfig's model in precision p.
func allocModel(t testing.TB, p Precision) *Model {
	m := newTestModel(t, allocConfig, 11)
	if p == BF16 {
		m = m.WithPrecision(BF16)
	}
	return m
}

// warmGenerator is a cached Generator over m past its prefill and first steps, which make
// the cache, the buffers and the pools. A garbage collection in between leaves none due
// from what came before (it would empty the pools the kernels keep their scratch in).
func warmGenerator(t testing.TB, m *Model, p Policy) *Generator {
	g, err := NewGenerator(m, genPrompt(7, 9, m.Config.VocabSize), p, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Steps(3); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	if _, err := g.Steps(3); err != nil {
		t.Fatal(err)
	}
	return g
}

// mallocs counts the heap allocations of n calls of f, on every core (testing.AllocsPerRun
// runs f with GOMAXPROCS 1, where no region reaches the team of helpers).
func mallocs(n int, f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		f()
	}
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}

func TestCachedStepAllocatesNothing(t *testing.T) {
	for _, p := range []Precision{FP32, BF16} {
		for _, pol := range []Policy{Greedy, NanoGPT, {Temperature: 1, TopP: 0.9, Seed: 3}} {
			t.Run(fmt.Sprintf("%v/%v", p, pol), func(t *testing.T) {
				m := allocModel(t, p)
				g := warmGenerator(t, m, pol)
				step := func() {
					if _, err := g.Step(); err != nil {
						t.Fatal(err)
					}
				}
				if a := testing.AllocsPerRun(50, step); a != 0 {
					t.Errorf("testing.AllocsPerRun: %v allocations per cached step, want 0", a)
				}
				// On every core, as AllocsPerRun counts (fewer than one a step): the history's
				// slices (ids, Steps, Top lists) grow now and then, and a garbage collection
				// that the rest of the process starts empties the kernels' pools, which
				// refill once.
				const steps = 100
				n := mallocs(steps, step)
				t.Logf("%d allocations in %d cached steps on %d cores", n, steps, runtime.GOMAXPROCS(0))
				if n >= steps {
					t.Errorf("%d allocations in %d cached steps on %d cores, want fewer than one a step", n, steps, runtime.GOMAXPROCS(0))
				}
			})
		}
	}
}

// BenchmarkCachedStep is one cached decode step of allocConfig's model in the steady state,
// with its allocations (0 B/op, 0 allocs/op):
//
//	go test -tags openblas -run '^$' -bench 'CachedStep' -benchmem ./gpt/
func BenchmarkCachedStep(b *testing.B) {
	for _, p := range []Precision{FP32, BF16} {
		b.Run(p.String(), func(b *testing.B) {
			m := allocModel(b, p)
			g := warmGenerator(b, m, Greedy)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if g.Cache().Len() >= allocConfig.BlockSize-1 { // start again before the window moves
					b.StopTimer()
					g = warmGenerator(b, m, Greedy)
					b.StartTimer()
				}
				if _, err := g.Step(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
