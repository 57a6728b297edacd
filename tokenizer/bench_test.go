package tokenizer

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

// Benchmarks, side by side with tiktoken-go (go test -bench . -benchtime 1x;
// -long for the whole of GOROOT/src):
//
//	BenchmarkEncode/gptnotes, BenchmarkEncode/tiktoken-go: MB/s on Go source
//	BenchmarkGPT2Build: time and retained heap of GPT2()
//	BenchmarkTrain: a 4,096-token vocabulary from 10 MB of Go source

// benchCorpus is the valid-UTF-8 .go files of a sample of GOROOT/src (every
// 10th file, about 10 MB) or all of it with -long.
func benchCorpus(b *testing.B) []string {
	files := goFiles(b)
	if !*long {
		files = sample(files, 10)
	}
	var texts []string
	for _, t := range readAll(b, files) {
		if utf8.ValidString(t) {
			texts = append(texts, t)
		}
	}
	return texts
}

func BenchmarkEncode(b *testing.B) {
	texts := benchCorpus(b)
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	g, c := gpt2(b), r50k(b)
	// Same ids, checked once before timing.
	for i, t := range texts {
		want, _, _ := c.Encode(t)
		if d := diffIDs(g.Encode(t), want); d != "" {
			b.Fatalf("file %d: %s", i, d)
		}
	}
	b.Run("gptnotes", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, t := range texts {
				g.Encode(t)
			}
		}
	})
	b.Run("tiktoken-go", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, t := range texts {
				c.Encode(t)
			}
		}
	})
}

// heapInUse returns the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkGPT2Build builds GPT-2's tokenizer from tiktoken-go's ranks. The
// first build also pays for tiktoken-go's own rank map (a package variable
// it keeps); the retained-heap metric counts only our tables.
func BenchmarkGPT2Build(b *testing.B) {
	var keep *Tokenizer
	var retained uint64
	for range b.N {
		b.StopTimer()
		keep = nil
		before := heapInUse()
		b.StartTimer()
		t, err := buildGPT2()
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		keep = t
		retained = heapInUse() - before
		b.StartTimer()
	}
	b.ReportMetric(float64(retained)/1e6, "retained-MB")
	runtime.KeepAlive(keep)
}

// peakHeap samples the heap every millisecond until stop is closed.
func peakHeap(stop <-chan struct{}, peak *atomic.Uint64) {
	var m runtime.MemStats
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Millisecond):
		}
		runtime.ReadMemStats(&m)
		if m.HeapAlloc > peak.Load() {
			peak.Store(m.HeapAlloc)
		}
	}
}

// BenchmarkTrain trains on 10 MB of Go source. Two vocabulary sizes show
// the cost of the merges themselves: with incremental pair counts, 8× the
// merges costs far less than 8× the time (pre-splitting and counting the
// chunks is a fixed share).
func BenchmarkTrain(b *testing.B) {
	text := goSource(b, 10<<20)[:10<<20]
	for _, vocab := range []int{512, 4096} {
		b.Run(fmt.Sprintf("vocab=%d", vocab), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			var peak uint64
			var merges int
			for b.Loop() {
				base := heapInUse()
				var max atomic.Uint64
				stop := make(chan struct{})
				go peakHeap(stop, &max)
				tok, err := Train(text, vocab, TrainOptions{Special: []string{EndOfText}})
				close(stop)
				if err != nil {
					b.Fatal(err)
				}
				merges = len(tok.Merges())
				peak = max.Load() - min(base, max.Load())
			}
			b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
			b.ReportMetric(float64(merges), "merges")
		})
	}
}
