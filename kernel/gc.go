package kernel

import (
	"os"
	"runtime/debug"
)

// sessionGCPercent is the garbage collector's target the kernel runs with unless GOGC is set:
// half Go's default. A kernel lives for hours of small cells, each leaving a few long-lived
// objects among its garbage; with the default target the heap's pages fill with that garbage
// between collections, and the long-lived objects then keep the pages. Measured over 1,000
// trivial cells (tests/bench_memory.py, load 11–13): the kernel's resident set grew 10.6–11.2 KB
// a cell at GOGC=100, 7.6 at 50 and 5.9 at 25; the cell's own time stays under a millisecond
// (BenchmarkExecuteManyVariables: 0.5–1.0 ms at 100 and 0.8–1.0 ms at 50 on the loaded machine).
// The model's weights and activations are pointer-free slabs the collector does not scan, so
// their cells barely notice.
const sessionGCPercent = 50

// setSessionGC sets sessionGCPercent, unless the environment chose a target (GOGC).
func setSessionGC() {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(sessionGCPercent)
	}
}
