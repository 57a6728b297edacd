package kernel

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MemoryLimitEnv is the environment variable that gives a kernel its memory limit, set in the
// kernelspec's env or by whatever starts the notebook server (a JupyterHub spawner): bytes, or a
// number with a unit, "2GiB", "512MiB", "1.5G". Empty or "0" means no limit.
const MemoryLimitEnv = "GPTNOTES_MEMORY_LIMIT"

// memSlack is how far a cell may take the kernel past what it held when the cell started, when
// that was already over the limit: a session left over its limit by an earlier cell can still run
// the cell that frees the memory (`xs = nil`) or prints what it holds.
const memSlack = 64 << 20

// memEvery is how often the guard reads the process's memory while a cell runs. An interpreted
// loop allocates at most a few GB/s, so the kernel overshoots its limit by some hundreds of MB
// at worst; a hub sets the container's or pod's hard limit that far above the kernel's.
const memEvery = 50 * time.Millisecond

// ParseMemoryLimit reads a memory size: "536870912", "512MiB", "512M" (also MiB: memory sizes
// are powers of two here, as in GOMEMLIMIT), "2GiB", "1.5G", "0" or "" (no limit).
func ParseMemoryLimit(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, nil
	}
	num := strings.TrimRightFunc(t, func(r rune) bool { return r < '0' || r > '9' && r != '.' })
	unit := strings.ToLower(strings.TrimSpace(t[len(num):]))
	shift := map[string]uint{"": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20,
		"g": 30, "gb": 30, "gib": 30, "t": 40, "tb": 40, "tib": 40}
	sh, ok := shift[unit]
	f, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || f < 0 {
		return 0, fmt.Errorf("kernel: memory limit %q: want bytes or a size such as 512MiB or 2GiB", s)
	}
	return int64(f * float64(uint64(1)<<sh)), nil
}

// MemoryLimitFromEnv is the limit $GPTNOTES_MEMORY_LIMIT asks for (0 when unset).
func MemoryLimitFromEnv() (int64, error) {
	return ParseMemoryLimit(os.Getenv(MemoryLimitEnv))
}

// SetMemoryLimit gives the kernel a memory limit of n bytes (n ≤ 0: none); call it before Run.
//
// What counts is what the process holds: the larger of its resident set and the memory the Go
// runtime has mapped and not returned to the system (which counts a slice allocated but not yet
// touched). When a running cell takes it past n, the cell is stopped as an interrupt stops it,
// and fails with a MemoryLimit error that says the limit, what the kernel held before the cell
// and what the cell added, and what the kernel still holds after the stop. The kernel and the
// session's state stay. Between cells the guard watches too: past the limit, the goroutines
// earlier cells left running are stopped (GoroutineStopper) and the last cell shows why. The Go
// runtime's own soft limit (debug.SetMemoryLimit) is set to n as well, unless GOMEMLIMIT is set,
// so garbage is collected before it can count against the cell.
func (k *Kernel) SetMemoryLimit(n int64) {
	k.stackLimit = stackLimitFor(n)
	if n <= 0 {
		k.mem = nil
		return
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(n)
	}
	k.mem = &memGuard{limit: n, log: k.log.Printf, report: func(parent *Header, e *MemoryLimitError) {
		if gs, ok := k.engine.(GoroutineStopper); ok {
			e.Stopped = gs.StopGoroutines()
		}
		k.publish(parent, MsgStream, streamContent{Name: "stderr", Text: e.idleText()})
	}}
	go k.mem.watch(k.done)
}

// A GoroutineStopper is an Engine that can stop, between cells, the goroutines earlier cells
// left running (the interpreter session can); false when a cell runs meanwhile.
type GoroutineStopper interface {
	StopGoroutines() bool
}

// A MemoryLimitError is why a cell was stopped: the kernel went past its limit. Between cells,
// it is what the guard reports of goroutines an earlier cell left running.
type MemoryLimitError struct {
	Limit  int64 // bytes, e.g. 2 << 30
	Before int64 // what the kernel held when the cell started
	At     int64 // what it held when the guard stopped the cell
	After  int64 // what it holds once the cell has stopped and the garbage is collected

	Stopped bool // between cells: the leftover goroutines were stopped (GoroutineStopper)
}

func (e *MemoryLimitError) Error() string { return "MemoryLimit: " + e.value() }

func (e *MemoryLimitError) value() string {
	return fmt.Sprintf("the cell was stopped: the kernel held %s, past its memory limit of %s (%s); "+
		"this cell added %s to the %s the session held when it started",
		mib(e.At), mib(e.Limit), MemoryLimitEnv, mib(max(e.At-e.Before, 0)), mib(e.Before))
}

// cellError is the error the notebook shows: the value, then what became of the memory.
func (e *MemoryLimitError) cellError() *CellError {
	v := e.value()
	after := fmt.Sprintf("After the stop the kernel holds %s: the cell's memory was freed; "+
		"variables keep the values they had when it stopped.", mib(e.After))
	if e.After > e.Limit {
		after = fmt.Sprintf("After the stop the kernel still holds %s, over its limit: variables keep what "+
			"the cell put in them. Set the large ones to nil (or restart the kernel) to free it.", mib(e.After))
	}
	return &CellError{Name: "MemoryLimit", Value: v, Traceback: []string{"MemoryLimit: " + v, after}}
}

// idleText is what the notebook shows, under the last cell that ran, when the kernel went past
// its limit between cells: only goroutines an earlier cell left running allocate then.
func (e *MemoryLimitError) idleText() string {
	what := "the kernel stopped the goroutines earlier cells left running, as an interrupt stops a cell's; " +
		"what they stored in variables stays until you set those to nil"
	if !e.Stopped {
		what = "it is still running: restart the kernel to stop it"
	}
	return fmt.Sprintf("MemoryLimit: between cells the kernel grew to %s, past its memory limit of %s (%s), from %s "+
		"when the last cell ended: a goroutine an earlier cell started (go func() {…}()) went on allocating; %s.\n",
		mib(e.At), mib(e.Limit), MemoryLimitEnv, mib(e.Before), what)
}

// mib formats a byte count for people: "512 MiB", "1.50 GiB".
func mib(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", (n+(1<<19))>>20)
}

// A memGuard watches the process's memory against a limit and stops the running cell past it.
type memGuard struct {
	limit int64
	log   func(format string, args ...any)

	// report tells the notebook (under the last cell) that the kernel went past its limit
	// between cells; once, until the memory is back under the threshold.
	report func(parent *Header, e *MemoryLimitError)

	mu   sync.Mutex
	cell *guardedCell // the running cell, nil between cells

	// Between cells: what the kernel held when the last cell ended, that cell's request, and
	// whether an overrun since then has been reported.
	idleBase   int64
	lastParent *Header
	reported   bool
	checked    time.Time // when a full collection last found the idle kernel under its threshold
}

type guardedCell struct {
	before  int64
	cancel  context.CancelCauseFunc
	stopped *MemoryLimitError
	checked time.Time // when a full collection last found the kernel under its threshold
}

// begin watches the cell of request parent, that cancel stops; end, called when the cell has
// returned, reports whether the guard stopped it (nil when not), and starts the watch between
// cells.
func (g *memGuard) begin(parent *Header, cancel context.CancelCauseFunc) (end func() *MemoryLimitError) {
	if g == nil {
		return func() *MemoryLimitError { return nil }
	}
	c := &guardedCell{before: memoryInUse(), cancel: cancel}
	g.mu.Lock()
	g.cell = c
	g.mu.Unlock()
	return func() *MemoryLimitError {
		if c.stopped != nil {
			debug.FreeOSMemory() // collect what the stopped cell left, and give it back to the system
		}
		base := memoryInUse()
		g.mu.Lock()
		g.cell, g.idleBase, g.lastParent, g.reported = nil, base, parent, false
		g.mu.Unlock()
		if c.stopped == nil {
			return nil
		}
		c.stopped.After = base
		g.log("memory limit: stopped a cell at %s (limit %s); %s after the stop",
			mib(c.stopped.At), mib(g.limit), mib(c.stopped.After))
		return c.stopped
	}
}

// watch checks the running cell every memEvery until done is closed.
func (g *memGuard) watch(done <-chan struct{}) {
	poll(done, func() bool { g.check(); return false })
}

// poll calls check every memEvery until done is closed or check returns true (the memory
// guard's and the stack guard's watch over a running cell).
func poll(done <-chan struct{}, check func() (stop bool)) {
	t := time.NewTicker(memEvery)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if check() {
				return
			}
		}
	}
}

// check stops the running cell when the kernel holds more than its threshold: the limit, or
// memSlack more than the cell started with if that was over the limit already. Before stopping
// it, a full collection (at most twice a second) makes sure the excess is not garbage.
func (g *memGuard) check() {
	g.mu.Lock()
	c := g.cell
	g.mu.Unlock()
	if c == nil {
		g.checkIdle()
		return
	}
	if c.stopped != nil {
		return
	}
	threshold := max(g.limit, c.before+memSlack)
	used := memoryInUse()
	if used <= threshold {
		return
	}
	if time.Since(c.checked) > 500*time.Millisecond {
		debug.FreeOSMemory()
		if used = memoryInUse(); used <= threshold {
			c.checked = time.Now()
			return
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cell != c { // the cell ended meanwhile
		return
	}
	c.stopped = &MemoryLimitError{Limit: g.limit, Before: c.before, At: used}
	c.cancel(c.stopped)
}

// checkIdle reports, once, a kernel past its threshold between cells: the limit, or memSlack more
// than it held when the last cell ended if that was over the limit already. No cell runs then,
// so what grows is a goroutine an earlier cell left running; the report names the figures as a
// stopped cell's error does. A full collection (at most twice a second) rules out garbage first.
func (g *memGuard) checkIdle() {
	g.mu.Lock()
	base, parent, reported, checked := g.idleBase, g.lastParent, g.reported, g.checked
	g.mu.Unlock()
	threshold := max(g.limit, base+memSlack)
	used := memoryInUse()
	if used <= threshold || reported {
		if used <= threshold && reported {
			g.mu.Lock()
			g.reported = false
			g.mu.Unlock()
		}
		return
	}
	if time.Since(checked) > 500*time.Millisecond {
		debug.FreeOSMemory()
		if used = memoryInUse(); used <= threshold {
			g.mu.Lock()
			g.checked = time.Now()
			g.mu.Unlock()
			return
		}
	}
	g.mu.Lock()
	if g.cell != nil || g.lastParent != parent { // a cell began meanwhile: its own watch counts
		g.mu.Unlock()
		return
	}
	g.reported = true
	g.mu.Unlock()
	e := &MemoryLimitError{Limit: g.limit, Before: base, At: used}
	g.log("memory limit: between cells the kernel holds %s (limit %s; %s when the last cell ended)",
		mib(used), mib(g.limit), mib(base))
	if g.report != nil {
		g.report(parent, e)
	}
}

// memoryInUse is what the process holds: the larger of its resident set (which counts C
// libraries' memory, OpenBLAS's buffers) and what the Go runtime has mapped and not released
// (which counts memory allocated but not yet touched, that the cell may touch next).
func memoryInUse() int64 {
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(samples)
	var goHeld int64
	if samples[0].Value.Kind() == metrics.KindUint64 && samples[1].Value.Kind() == metrics.KindUint64 {
		goHeld = int64(samples[0].Value.Uint64() - samples[1].Value.Uint64())
	}
	return max(goHeld, residentSet())
}

// residentSet is the process's resident set size from /proc/self/statm (0 where there is none).
func residentSet() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
