package gpt

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
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

// A new Generator's first step makes room in its cache for the prompt (minRoom positions at
// least), not for the whole block: zeroing a slab for 1,024 positions cost the first step of
// GPT-2 Small in bf16 some hundred milliseconds. What the step allocates is counted, not
// timed: the cache's room, and all its allocations well under the full cache's size.
func TestFirstStepMakesRoomForThePrompt(t *testing.T) {
	cfg := Config{VocabSize: 512, BlockSize: 1024, Layers: 2, Heads: 2, Channels: 128}
	for _, p := range []Precision{FP32, BF16} {
		t.Run(p.String(), func(t *testing.T) {
			m := newTestModel(t, cfg, 13)
			size := 4
			if p == BF16 {
				m, size = m.WithPrecision(BF16), 2
			}
			prompt := genPrompt(13, 9, cfg.VocabSize)
			if g, err := NewGenerator(m, prompt, Greedy, true); err != nil { // the model's own buffers, made once
				t.Fatal(err)
			} else if _, err := g.Step(); err != nil {
				t.Fatal(err)
			}
			full, room := CacheBytes(cfg, cfg.BlockSize, size), CacheBytes(cfg, minRoom, size)
			least := uint64(math.MaxUint64) // bytes the first step allocated, the least of three generators (the count is the process's)
			for range 3 {
				g, err := NewGenerator(m, prompt, Greedy, true)
				if err != nil {
					t.Fatal(err)
				}
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				if _, err := g.Step(); err != nil {
					t.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				least = min(least, after.TotalAlloc-before.TotalAlloc)
				if got := g.Cache().allocated(); got != room {
					t.Errorf("after a %d-token prompt the cache allocated %d bytes, want %d (room for %d positions)", len(prompt), got, room, minRoom)
				}
				if g.Cache().Bytes() != full {
					t.Errorf("Bytes() = %d, want the full cache's %d", g.Cache().Bytes(), full)
				}
			}
			t.Logf("the first step allocated %d bytes; the full cache is %d, its first room %d", least, full, room)
			if least > uint64(full/4) {
				t.Errorf("the first step allocated %d bytes; the full cache is %d, its first room %d", least, full, room)
			}
		})
	}
}

// Growing the cache keeps what it holds: the keys and values of every layer are the same
// before and after the slab is replaced, and the cached loop still matches the uncached one
// across the doublings (64 → 128 → 256 positions).
func TestCacheGrowthKeepsPositions(t *testing.T) {
	cfg := Config{VocabSize: 512, BlockSize: 256, Layers: 2, Heads: 2, Channels: 128}
	for _, p := range []Precision{FP32, BF16} {
		t.Run(p.String(), func(t *testing.T) {
			m := newTestModel(t, cfg, 17)
			if p == BF16 {
				m = m.WithPrecision(BF16)
			}
			c := m.NewCache()
			ids := genPrompt(17, minRoom+1, cfg.VocabSize)
			if _, err := m.ForwardCached(c, ids[:minRoom]); err != nil {
				t.Fatal(err)
			}
			var before [][]float32
			for l := range cfg.Layers {
				k, v := c.Layer(l)
				before = append(before, slices.Clone(k), slices.Clone(v))
			}
			if _, err := m.ForwardCached(c, ids[minRoom:]); err != nil { // the 65th position: a new slab
				t.Fatal(err)
			}
			if c.allocated() != CacheBytes(cfg, 2*minRoom, c.Bytes()/CacheBytes(cfg, cfg.BlockSize, 1)) {
				t.Fatalf("after %d positions the cache allocated %d bytes, want room for %d", minRoom+1, c.allocated(), 2*minRoom)
			}
			for l := range cfg.Layers {
				k, v := c.Layer(l)
				C := cfg.Channels
				if !slices.Equal(k[:minRoom*C], before[2*l]) || !slices.Equal(v[:minRoom*C], before[2*l+1]) {
					t.Errorf("layer %d: the keys or values of the first %d positions changed when the cache grew", l, minRoom)
				}
			}
		})
	}
	m := newTestModel(t, cfg, 19)
	cmp, err := CompareCaching(m, genPrompt(19, 3, cfg.VocabSize), 200)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.FirstDiverge != 0 || cmp.MaxDiff > 1e-4 {
		t.Errorf("cached vs uncached over 200 steps (the cache grew twice): first divergence %d, max |Δlogit| %.3g (want none, ≤ 1e-4)", cmp.FirstDiverge, cmp.MaxDiff)
	}
}

// noCollectionConfig is allocConfig with room for a prompt and 256 generated tokens, so a
// run never moves its window.
var noCollectionConfig = Config{VocabSize: 4096, BlockSize: 512, Layers: 2, Heads: 2, Channels: 128}

// A 256-token cached run starts no garbage collection, once a run before it made the
// model's buffers and its cache: the run reserves its positions (Generator.Reserve) and
// its cache is the slab the last run gave back (Generator.Close), so what it allocates is
// the Generator's own buffers and the history of its steps (their Steps, Top lists and
// ids), under 400 kB, where the heap's goal after a collection just before is twice the
// live heap, the models being over 8 MB. (A cache doubling as it filled made 1.9 MB of
// slabs here in fp32; a step's garbage of the old kind, some 21 kB a step, would make over
// 5 MB.) The test pins the collector's settings (GOGC=100, no memory limit) while it runs.
//
// Two prompts. 4 tokens, the most the one-row kernels of the decode steps take
// (fast.GemvMaxRows): the whole run is checked, the prompt's step included. 9 tokens,
// whose forward runs on the sgemm: its 255 decode steps are checked, and the prompt's step
// only logged. The sgemm takes its packing buffers (a few MB) from sync.Pools, which the
// collection before the run moves to their victim caches, and a pool hands a buffer back
// from there only to the core whose private slot held it: on the other core the step
// makes the buffer again (2.3 and 5.4 MB in 2 runs of 10, seen here), which may start a
// collection on a heap this small.
func TestNoCollectionIn256Steps(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	const budget = 400 << 10 // the Generator's buffers and its history
	for _, p := range []Precision{FP32, BF16} {
		for _, promptLen := range []int{fast.GemvMaxRows, 9} {
			t.Run(fmt.Sprintf("%v/prompt=%d", p, promptLen), func(t *testing.T) {
				m := newTestModel(t, noCollectionConfig, 23)
				if p == BF16 {
					m = m.WithPrecision(BF16)
				}
				prompt := genPrompt(23, promptLen, m.Config.VocabSize)
				var start, first, end runtime.MemStats
				run := func() {
					runtime.ReadMemStats(&start)
					g, err := NewGenerator(m, prompt, Greedy, true)
					if err != nil {
						t.Fatal(err)
					}
					g.Reserve(256)
					if _, err := g.Step(); err != nil { // the prompt's forward
						t.Fatal(err)
					}
					runtime.ReadMemStats(&first)
					for range 255 {
						if _, err := g.Step(); err != nil {
							t.Fatal(err)
						}
					}
					g.Close()
					runtime.ReadMemStats(&end)
				}
				run()        // makes the model's buffers, the cache, the kernels' pools
				runtime.GC() // none due from the first run, nor from earlier tests
				run()
				gcs, bytes, allocs := end.NumGC-start.NumGC, end.TotalAlloc-start.TotalAlloc, end.Mallocs-start.Mallocs
				prefill, steps := first.TotalAlloc-start.TotalAlloc, end.TotalAlloc-first.TotalAlloc
				t.Logf("a 256-token run after one that made the cache: %d garbage collections, %d bytes in %d allocations (the prompt's step %d, 255 decode steps %d); the heap %d, its goal %d",
					gcs, bytes, allocs, prefill, steps, start.HeapAlloc, start.NextGC)
				if promptLen <= fast.GemvMaxRows {
					if gcs != 0 || bytes > budget {
						t.Errorf("a 256-token run after a %d-token prompt: %d garbage collections, %d bytes in %d allocations (the prompt's step %d), want none and at most %d (the heap %d, its goal %d)",
							promptLen, gcs, bytes, allocs, prefill, budget, start.HeapAlloc, start.NextGC)
					}
					return
				}
				if gcs := end.NumGC - first.NumGC; gcs != 0 || steps > budget {
					t.Errorf("the 255 decode steps of a 256-token run: %d garbage collections, %d bytes, want none and at most %d (the heap %d, its goal %d)",
						gcs, steps, budget, first.HeapAlloc, first.NextGC)
				}
			})
		}
	}
}
