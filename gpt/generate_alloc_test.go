package gpt

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
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

// A 256-token cached run starts no garbage collection once its prompt is in. What its 255
// decode steps allocate is the cache as it doubles to 512 positions (slabs of 128, 256 and
// 512 positions, under twice the last) and the history of the steps (their Steps, Top
// lists and ids, some hundred kB): about a MB where the heap's goal, after a collection
// just before, is twice the live heap (the models: over 8 MB). One step's garbage of the
// old kind (some 21 kB a step) would have been over 5 MB. The test pins the collector's
// settings (GOGC=100, no memory limit) while it runs.
//
// The first step, the prompt's forward, is not counted: the sgemm takes its packing
// buffers from sync.Pools, and whether a pool hands back the slice a warm-up left depends
// on which core's slot holds it (0.1 to 6.6 MB allocated in that step, seen here); the
// test logs it.
func TestNoCollectionIn256Steps(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	for _, p := range []Precision{FP32, BF16} {
		t.Run(p.String(), func(t *testing.T) {
			m := newTestModel(t, noCollectionConfig, 23)
			size := 4
			if p == BF16 {
				m, size = m.WithPrecision(BF16), 2
			}
			prompt := genPrompt(23, 9, m.Config.VocabSize)
			g, err := NewGenerator(m, prompt, Greedy, true)
			if err != nil {
				t.Fatal(err)
			}
			var start, first, end runtime.MemStats
			runtime.ReadMemStats(&start)
			if _, err := g.Step(); err != nil { // the prompt's forward
				t.Fatal(err)
			}
			runtime.ReadMemStats(&first)
			prefill := first.TotalAlloc - start.TotalAlloc
			runtime.GC() // none due from the prompt, nor from earlier tests
			runtime.ReadMemStats(&first)
			for range 255 {
				if _, err := g.Step(); err != nil {
					t.Fatal(err)
				}
			}
			runtime.ReadMemStats(&end)
			gcs, bytes := end.NumGC-first.NumGC, end.TotalAlloc-first.TotalAlloc
			cache := uint64(2 * CacheBytes(noCollectionConfig, noCollectionConfig.BlockSize, size))
			const history = 256 << 10
			t.Logf("the prompt's step allocated %d bytes; 255 decode steps: %d garbage collections, %d bytes in %d allocations (the cache's slabs under %d); the heap %d, its goal %d",
				prefill, gcs, bytes, end.Mallocs-first.Mallocs, cache, first.HeapAlloc, first.NextGC)
			if gcs != 0 {
				t.Errorf("%d garbage collections in the 255 decode steps of a 256-token run; they allocated %d bytes in %d allocations (the heap %d, its goal %d)",
					gcs, bytes, end.Mallocs-first.Mallocs, first.HeapAlloc, first.NextGC)
			}
			if bytes > cache+history {
				t.Errorf("255 decode steps allocated %d bytes, want at most the cache's slabs (%d) and %d for the history", bytes, cache, history)
			}
		})
	}
}
