package kernel

import (
	"os"
	"runtime/debug"
)

// sessionGCPercent is the garbage collector's target the kernel runs with unless GOGC is set: a
// tenth of Go's default. A kernel lives for hours of small cells, each leaving a few long-lived
// objects among its garbage; between collections the heap grows by the target's share of the
// live heap, which counts the model's weights (pointer-free slabs the collector does not scan,
// but which its goal includes), and a class server sees those pages until the idle release
// (idle.go) returns them. Measured over 1,000 trivial cells after the model and 200 tokens
// (tests/bench_memory.py, load 10–16), the resident set right after the last reply grew 23.4–23.7
// KB a cell at 50, 13.6 at 25, 9.0–9.8 at 15 and 7.6–8.0 at 10 (idle: 9.1–9.9, 6.4, 5.0–6.1,
// 5.2–5.5). The cost is more collections in cells that allocate: 300 allocations of 400 KB took
// 0.26 s at 10 against 0.04–0.10 s at 50 and 0.16–0.18 s at 15; 200 tokens of the shipped model,
// whose steps allocate nothing, 1.37 s against 1.48 s (same runs, noise). Earlier, with
// debug.FreeOSMemory before each reading: 10.6–11.2 KB a cell at GOGC=100, 7.6 at 50, 5.9 at 25.
const sessionGCPercent = 10

// setSessionGC sets sessionGCPercent, unless the environment chose a target (GOGC).
func setSessionGC() {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(sessionGCPercent)
	}
}
