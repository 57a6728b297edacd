package session

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkExecuteTrivial is the engine's share of an execute round trip: a one-line cell with a
// result, through splitting, rewriting, compiling, running and both capture flushes.
func BenchmarkExecuteTrivial(b *testing.B) {
	s := newSession(b)
	r := newRecorder()
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Execute(ctx, "1 + 1", r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExecuteHeapGrowth reports the live heap after N trivial cells, per cell: yaegi keeps
// every compiled cell, so it is not zero; it should stay small.
func BenchmarkExecuteHeapGrowth(b *testing.B) {
	s := newSession(b)
	r := newRecorder()
	ctx := context.Background()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < b.N; i++ {
		if _, err := s.Execute(ctx, "x := 1 + 1\nx", r); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(b.N), "heapB/cell")
}

// BenchmarkExecuteManyVariables runs b.N cells that each declare a new variable (xN := N*2),
// the session a long class builds: it reports the live heap per cell and the time of the last
// cells against the first (the check sees every earlier variable).
func BenchmarkExecuteManyVariables(b *testing.B) {
	s := newSession(b)
	r := newRecorder()
	ctx := context.Background()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var first, last time.Duration
	rssBefore := rssKB()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := s.Execute(ctx, fmt.Sprintf("x%d := %d * 2", i, i), r); err != nil {
			b.Fatal(err)
		}
		if d := time.Since(start); i < 10 {
			first += d
		} else if i >= b.N-10 {
			last += d
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(b.N), "heapB/cell")
	b.ReportMetric(float64(rssKB()-rssBefore)/float64(b.N), "rssKB/cell")
	if b.N >= 20 {
		b.ReportMetric(float64(first.Microseconds())/10, "first10µs/cell")
		b.ReportMetric(float64(last.Microseconds())/10, "last10µs/cell")
	}
}

// rssKB is the process's resident set size, from /proc (0 where there is none).
func rssKB() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}
