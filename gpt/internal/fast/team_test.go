package fast

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Regions from several goroutines at once, regions inside regions, and regions after the
// helpers went to sleep: every index is visited exactly once, and nothing deadlocks.
func TestTeamRegions(t *testing.T) {
	region := func(n int) {
		seen := make([]atomic.Int32, n)
		Chunks(n, 1, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Errorf("Chunks(%d): index %d visited %d times", n, i, c)
				return
			}
		}
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < 200; r++ {
				region(1 + (g*37+r)%100)
			}
		}()
	}
	wg.Wait()

	var total atomic.Int64
	For(8, func(_, i int) { // a region inside each part of another
		Chunks(100, 1, func(lo, hi int) { total.Add(int64(hi - lo)) })
	})
	if total.Load() != 800 {
		t.Errorf("nested regions covered %d indices, want 800", total.Load())
	}

	time.Sleep(3 * spinFor) // the helpers sleep now
	region(50)
}

// A helper whose thread gets no core (a busy shared machine): the goroutine that posted
// each part runs it itself instead of waiting, and when the helper does run at last it
// neither repeats those parts nor misses the ones after.
func TestTeamHelperWithoutACore(t *testing.T) {
	h := &helper{wake: make(chan struct{}, 1)} // its loop is not running yet
	ran := 0
	for range 3 {
		h.start(func(_, _ int) { ran++ }, 0, 1)
		h.finish()
	}
	if ran != 3 {
		t.Fatalf("with the helper absent, %d of 3 parts ran", ran)
	}
	go h.loop()
	for i := range 2000 {
		if i%500 == 0 {
			time.Sleep(2 * spinFor) // let it fall asleep now and then
		}
		h.start(func(_, _ int) { ran++ }, 0, 1)
		h.finish()
	}
	if ran != 2003 {
		t.Errorf("after the helper started, %d parts ran, want 2003", ran)
	}
}
