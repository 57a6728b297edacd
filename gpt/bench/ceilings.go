package bench

import (
	"runtime"
	"sync"
	"time"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// Ceilings are the machine's two measured limits, each the best of a few runs: the memory
// stream, and the peak of the arithmetic, measured with the instructions the products run
// on (the FMA peak for fp32, and the bf16 peak where a BF16 model's products have their own).
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
	// The bf16 peak, GFLOP/s, on one core and on every core at once: VDPBF16PS, two
	// multiply-adds a lane, which a BF16 model's products run on where the CPU has AVX-512
	// BF16; 0 elsewhere (BF16PeakKernel is ""), where they run on FMAs and the FMA peak
	// bounds them.
	BF16PeakKernel string  `json:"bf16_peak_kernel"`
	BF16PeakCore   float64 `json:"bf16_peak_core_gflops"`  // e.g. 250
	BF16PeakTotal  float64 `json:"bf16_peak_total_gflops"` // e.g. 500
}

// measureCeilings reads a buffer of streamBytes (rounded down to 1,024-float rows) passes
// times on every core, keeping the best, and runs each peak kernel for about peakTime on one
// core and then on every core at once, best of three, the two kernels taking turns.
func measureCeilings(streamBytes, passes int, peakTime time.Duration) Ceilings {
	c := Ceilings{Load: Load(), PeakKernel: fast.PeakKernel, BF16PeakKernel: fast.BF16PeakKernel}
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

	var fmaRounds, bf16Rounds int
	if c.PeakKernel != "" {
		fmaRounds = peakRounds(fast.FMAPeak, peakTime)
	}
	if c.BF16PeakKernel != "" {
		bf16Rounds = peakRounds(fast.BF16Peak, peakTime)
	}
	for r := 0; r < 3; r++ {
		if fmaRounds > 0 {
			c.PeakCore = max(c.PeakCore, peakOn(fast.FMAPeak, 1, fmaRounds))
			c.PeakTotal = max(c.PeakTotal, peakOn(fast.FMAPeak, fast.Workers(), fmaRounds))
		}
		if bf16Rounds > 0 {
			c.BF16PeakCore = max(c.BF16PeakCore, peakOn(fast.BF16Peak, 1, bf16Rounds))
			c.BF16PeakTotal = max(c.BF16PeakTotal, peakOn(fast.BF16Peak, fast.Workers(), bf16Rounds))
		}
	}
	return c
}

// better is c with each ceiling the better of c's and d's: each is a limit, so on a shared
// machine the higher measurement is the nearer one.
func (c Ceilings) better(d Ceilings) Ceilings {
	c.StreamGBs = max(c.StreamGBs, d.StreamGBs)
	c.PeakCore = max(c.PeakCore, d.PeakCore)
	c.PeakTotal = max(c.PeakTotal, d.PeakTotal)
	c.BF16PeakCore = max(c.BF16PeakCore, d.BF16PeakCore)
	c.BF16PeakTotal = max(c.BF16PeakTotal, d.BF16PeakTotal)
	return c
}

// peakRounds is how many rounds of a peak kernel (fast.FMAPeak or fast.BF16Peak) take about
// d on one core.
func peakRounds(probe func(rounds int) float64, d time.Duration) int {
	n := 1 << 16
	for {
		start := time.Now()
		probe(n)
		if el := time.Since(start); el > d/8 || n >= 1<<30 { // 1<<30: int is 32 bits on 386 and arm
			return int(float64(n) * d.Seconds() / el.Seconds())
		}
		n *= 2
	}
}

// peakOn runs rounds of a peak kernel on each of n goroutines at once, each locked to an
// OS thread, and returns their GFLOP/s together.
func peakOn(probe func(rounds int) float64, n, rounds int) float64 {
	var wg sync.WaitGroup
	flops := make([]float64, n)
	start := time.Now()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			flops[i] = probe(rounds)
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
