package kernel

import (
	"runtime/debug"
	"time"
)

// idleRelease is how long the shell must have been quiet after a reply before the kernel gives
// the memory its collector has freed back to the system. The Go runtime returns free pages on
// its own only slowly (its background scavenger keeps a margin and works over minutes), so a
// kernel that has run many small cells shows the system a resident set well above what it
// holds; a class server counts that figure. Cells of a burst (Run All, a slider's comm
// messages) follow each other within milliseconds and never wait for it; a person reading the
// output waits far longer than this.
const idleRelease = 300 * time.Millisecond

// releaseMemory collects the garbage and returns the free pages to the system: the kernel's
// resident set then counts what the session keeps (measured in tests/bench_memory.py, see
// docs/kernel.md "Memory over a long session").
func releaseMemory() { debug.FreeOSMemory() }

// idleTimer fires once the shell has been idle for idleRelease since the last reply; quiet
// again until the next request has been served.
type idleTimer struct {
	t *time.Timer
	C <-chan time.Time // nil (never ready) while nothing has been served since the last release
}

// served starts the wait after a reply.
func (it *idleTimer) served() {
	if it.t == nil {
		it.t = time.NewTimer(idleRelease)
	} else {
		it.t.Reset(idleRelease) // Go ≥ 1.23: no stale tick survives Reset
	}
	it.C = it.t.C
}

// busy stops the wait while a request is served.
func (it *idleTimer) busy() {
	if it.t != nil {
		it.t.Stop()
	}
	it.C = nil
}

// fired records that the release happened: no other until something is served.
func (it *idleTimer) fired() { it.C = nil }
