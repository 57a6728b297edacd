package fast

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The kernels split their work over the cores in parallel regions: a decode step of GPT-2
// Small runs about sixty of them, each well under a millisecond. Starting a goroutine for
// each part would be cheap, but waking the idle core that runs it is not: the operating
// system takes tens of microseconds to wake a sleeping thread (longer in a virtual machine),
// which adds up to milliseconds per token. So the parts run on a team of helper goroutines,
// one per extra core, that stay awake — spinning on an atomic counter — for a short while
// after each part, and only then go to sleep until the next region wakes them.
//
// A helper may also not get a core at all: on a shared machine (a class's kernels on one
// server, a training run beside a notebook) its thread waits for the scheduler, for
// milliseconds at a time. So a part is claimed before it runs, and the goroutine that
// posted it, once its own part is done, claims and runs any part no helper has started:
// a region is never slower than running all of its parts on one core. A helper that finds
// its part taken this way was too slow to be worth spinning for, and goes to sleep at once.

// spinFor is how long a helper stays awake after its last part.
const spinFor = time.Millisecond

// runChunks calls fn(n·k/w, n·(k+1)/w) for k = 0 … w-1 concurrently, k = 0 on this
// goroutine, and returns when every call has returned. The team's parts are fn and a range,
// not a closure made per part, so that a region on the team allocates nothing (see Region).
func runChunks(n, w int, fn func(lo, hi int)) {
	if w <= 1 {
		fn(0, n)
		return
	}
	helpers := theTeam()
	if w-1 > len(helpers) || !teamBusy.TryLock() {
		// More parts than cores, or another region holds the team (regions running from
		// several goroutines at once, or one inside another): plain goroutines.
		var wg sync.WaitGroup
		for k := 1; k < w; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				fn(n*k/w, n*(k+1)/w)
			}()
		}
		fn(0, n/w)
		wg.Wait()
		return
	}
	defer teamBusy.Unlock()
	for k := 1; k < w; k++ {
		helpers[k-1].start(fn, n*k/w, n*(k+1)/w)
	}
	fn(0, n/w)
	for k := 1; k < w; k++ {
		helpers[k-1].finish()
	}
}

// teamBusy is held by the region that uses the team.
var teamBusy sync.Mutex

var (
	teamOnce sync.Once
	team     []*helper
)

// theTeam starts the helpers on first use: one per core beyond the first.
func theTeam() []*helper {
	teamOnce.Do(func() {
		team = make([]*helper, runtime.GOMAXPROCS(0)-1)
		for i := range team {
			team[i] = &helper{wake: make(chan struct{}, 1)}
			go team[i].loop()
		}
	})
	return team
}

// A helper runs one part at a time, fn(lo, hi). start publishes a part by storing it and
// then bumping posted to its number; whoever moves claimed up to that number first runs it —
// the helper, or the poster in finish — and the helper sets done to it when it has run it. A
// helper that found nothing to do for spinFor says it is asleep and blocks on wake; start
// checks asleep after posting, and the helper checks posted again after saying it is asleep,
// so one of them always notices the other (the atomics are sequentially consistent). part,
// lo and hi are written only by start, before posted, and read only by its claimer, before
// done: the next start waits for both.
type helper struct {
	part    func(lo, hi int)
	lo, hi  int
	posted  atomic.Uint64
	claimed atomic.Uint64
	done    atomic.Uint64
	asleep  atomic.Bool
	wake    chan struct{}
}

func (h *helper) start(part func(lo, hi int), lo, hi int) {
	h.part, h.lo, h.hi = part, lo, hi
	h.posted.Add(1)
	if h.asleep.Load() {
		select {
		case h.wake <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// finish returns when the posted part has run: it runs the part here if the helper has not
// claimed it yet, and otherwise spins until the helper is done with it (it is running it now).
func (h *helper) finish() {
	n := h.posted.Load()
	if h.claimed.CompareAndSwap(n-1, n) {
		part := h.part
		h.part = nil
		part(h.lo, h.hi)
		return
	}
	for i := 0; h.done.Load() != n; i++ {
		if i%64 == 63 {
			runtime.Gosched()
		}
	}
}

func (h *helper) loop() {
	var seen uint64
	for {
		idle := time.Now()
		for h.posted.Load() == seen {
			if time.Since(idle) < spinFor {
				continue
			}
			h.sleep(seen)
			idle = time.Now()
		}
		seen = h.posted.Load()
		if !h.claimed.CompareAndSwap(seen-1, seen) {
			h.sleep(seen) // the poster ran it: this thread is not getting a core in time
			continue
		}
		part := h.part
		h.part = nil
		part(h.lo, h.hi)
		h.done.Store(seen)
	}
}

// sleep blocks until a part after seen is posted.
func (h *helper) sleep(seen uint64) {
	h.asleep.Store(true)
	if h.posted.Load() == seen {
		<-h.wake
	}
	h.asleep.Store(false)
}

// getFloats takes a slice of n floats from pool (contents undefined). A new one has room
// for the next power of two, so that a size that grows a little at a time (the cached
// attention's scores, one more key a step) allocates only when it doubles.
func getFloats(pool *sync.Pool, n int) *[]float32 {
	if p, ok := pool.Get().(*[]float32); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]float32, n, 1<<bits.Len(uint(max(n, 1)-1)))
	return &s
}

// Workers is how many goroutines the kernels split work over: one per core.
func Workers() int { return runtime.GOMAXPROCS(0) }

// Chunks splits [0, n) into one contiguous chunk per worker (each at least minChunk long)
// and runs fn on them concurrently, on the team.
func Chunks(n, minChunk int, fn func(lo, hi int)) {
	w := Workers()
	if w > n/minChunk {
		w = n / minChunk
	}
	if w <= 1 {
		fn(0, n)
		return
	}
	runChunks(n, w, fn)
}

// For runs fn(worker, i) for every i in [0, n), handing indices to one goroutine per core;
// worker (0 ≤ worker < Workers()) lets fn use per-goroutine scratch.
func For(n int, fn func(worker, i int)) {
	w := Workers()
	if w > n {
		w = n
	}
	if w <= 1 {
		for i := 0; i < n; i++ {
			fn(0, i)
		}
		return
	}
	var mu sync.Mutex
	next := 0
	work := func(k, _ int) {
		for {
			mu.Lock()
			i := next
			next++
			mu.Unlock()
			if i >= n {
				return
			}
			fn(k, i)
		}
	}
	runChunks(w, w, work)
}

// A Region is a parallel region that allocates nothing when it runs: a cached decode step
// runs some sixty, and a closure handed to the team escapes to the heap, one allocation
// per region — garbage for every token. A Region's Body is a plain function of its
// arguments, held in a struct A, and of a range; the closure that calls it on the team is
// made once per task and the tasks are pooled.
//
//	var addRegion = fast.Region[addArgs]{Body: func(a *addArgs, lo, hi int) { … }}
//	addRegion.Chunks(N, 1<<16, addArgs{out, x, y})
type Region[A any] struct {
	Body  func(a *A, lo, hi int)
	tasks sync.Pool // of *regionTask[A]
}

// regionTask is one running region: its arguments and the closure the team calls.
type regionTask[A any] struct {
	args A
	fn   func(lo, hi int) // Body on args, made once
}

// Chunks runs Body over [0, n) with args, split as Chunks splits it.
func (r *Region[A]) Chunks(n, minChunk int, args A) {
	r.run(n, min(Workers(), n/minChunk), args)
}

// Parts runs Body(args, k, k+1) for k = 0 … w-1 concurrently: w parts the body tells apart
// by k.
func (r *Region[A]) Parts(w int, args A) {
	r.run(max(w, 1), w, args)
}

// run calls Body on args over [0, n) in w chunks. The arguments go to a pooled task even
// for one chunk: a pointer handed to a func value escapes, so &args would be an allocation.
func (r *Region[A]) run(n, w int, args A) {
	t, _ := r.tasks.Get().(*regionTask[A])
	if t == nil {
		t = new(regionTask[A])
		t.fn = func(lo, hi int) { r.Body(&t.args, lo, hi) }
	}
	t.args = args
	runChunks(n, w, t.fn)
	var zero A
	t.args = zero // keep none of the caller's slices alive in the pool
	r.tasks.Put(t)
}
