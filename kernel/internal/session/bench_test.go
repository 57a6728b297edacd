package session

import (
	"context"
	"runtime"
	"testing"
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
