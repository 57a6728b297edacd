package bench

import (
	"runtime"
	"sync"
	"time"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// Ceilings are the machine's two measured limits, each the best of a few runs.
type Ceilings struct {
	Load        []float64 `json:"load"`         // the load average when the probes started
	LoadAfter   []float64 `json:"load_after"`   // and when they ran again at the end of the run
	StreamBytes int       `json:"stream_bytes"` // the buffer read, e.g. 536870912
	StreamGBs   float64   `json:"stream_gbs"`   // memory stream bandwidth, GB/s, e.g. 43
	// The FMA peak, GFLOP/s, on one core and on every core at once; 0 when this CPU has no
	// peak kernel (PeakKernel is "").
	PeakKernel string  `json:"peak_kernel"`
	PeakCore   float64 `json:"peak_core_gflops"`  // e.g. 95
	PeakTotal  float64 `json:"peak_total_gflops"` // e.g. 190
}

// measureCeilings reads a buffer of streamBytes (rounded down to 1,024-float rows) passes
// times on every core, keeping the best, and runs the peak kernel for about peakTime on one
// core and then on every core at once, best of three.
func measureCeilings(streamBytes, passes int, peakTime time.Duration) Ceilings {
	c := Ceilings{Load: Load(), PeakKernel: fast.PeakKernel}
	const cols = 1024
	rows := max(streamBytes/4/cols, 1)
	c.StreamBytes = 4 * rows * cols
	w, x, y := make([]float32, rows*cols), make([]float32, cols), make([]float32, rows)
	for i := range w { // touch every page, so the first pass does not time the page faults
		w[i] = 1
	}
	fast.StreamRead(y, x, w) // warm the team
	for p := 0; p < passes; p++ {
		start := time.Now()
		fast.StreamRead(y, x, w)
		c.StreamGBs = max(c.StreamGBs, float64(c.StreamBytes)/time.Since(start).Seconds()/1e9)
	}
	w = nil
	runtime.GC() // give the buffer back before the models load

	if c.PeakKernel == "" {
		return c
	}
	rounds := peakRounds(peakTime)
	for r := 0; r < 3; r++ {
		c.PeakCore = max(c.PeakCore, peakOn(1, rounds))
		c.PeakTotal = max(c.PeakTotal, peakOn(fast.Workers(), rounds))
	}
	return c
}

// peakRounds is how many rounds of the peak kernel take about d on one core.
func peakRounds(d time.Duration) int {
	n := 1 << 16
	for {
		start := time.Now()
		fast.FMAPeak(n)
		if el := time.Since(start); el > d/8 || n > 1<<40 {
			return int(float64(n) * d.Seconds() / el.Seconds())
		}
		n *= 2
	}
}

// peakOn runs rounds of the peak kernel on each of n goroutines at once, each locked to an
// OS thread, and returns their GFLOP/s together.
func peakOn(n, rounds int) float64 {
	var wg sync.WaitGroup
	flops := make([]float64, n)
	start := time.Now()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			flops[i] = fast.FMAPeak(rounds)
		}()
	}
	wg.Wait()
	el := time.Since(start).Seconds()
	total := 0.0
	for _, f := range flops {
		total += f
	}
	return total / el / 1e9
}
