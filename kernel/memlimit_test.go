package kernel

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

func TestParseMemoryLimit(t *testing.T) {
	for in, want := range map[string]int64{
		"": 0, "0": 0, "536870912": 512 << 20, "512MiB": 512 << 20, "512M": 512 << 20, " 2GiB ": 2 << 30,
		"1.5G": 3 << 29, "64k": 64 << 10, "1 TiB": 1 << 40,
	} {
		got, err := ParseMemoryLimit(in)
		if err != nil || got != want {
			t.Errorf("ParseMemoryLimit(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"lots", "12 parsecs", "-1G", "G"} {
		if got, err := ParseMemoryLimit(in); err == nil {
			t.Errorf("ParseMemoryLimit(%q) = %d, want an error", in, got)
		}
	}
}

func TestMemoryLimitErrorSaysLimitAndUse(t *testing.T) {
	e := &MemoryLimitError{Limit: 2 << 30, Before: 100 << 20, At: 2200 << 20, After: 110 << 20}
	ce := e.cellError()
	if ce.Name != "MemoryLimit" {
		t.Errorf("name %q", ce.Name)
	}
	for _, want := range []string{"2.00 GiB", MemoryLimitEnv, "2.15 GiB", "added 2.05 GiB", "100 MiB the session held"} {
		if !strings.Contains(ce.Value, want) {
			t.Errorf("value %q lacks %q", ce.Value, want)
		}
	}
	if !strings.Contains(ce.Traceback[1], "110 MiB") || !strings.Contains(ce.Traceback[1], "freed") {
		t.Errorf("traceback %q", ce.Traceback)
	}
	e.After = 3 << 30
	if tb := e.cellError().Traceback[1]; !strings.Contains(tb, "still holds 3.00 GiB") {
		t.Errorf("after the stop, over the limit: %q", tb)
	}
}

// TestMemGuardStopsAnAllocatingCell runs the guard on this process: a "cell" that allocates
// and writes 1 MiB at a time until its context is cancelled must be stopped, with the guard's
// error as the cause, soon after the process passes the limit.
func TestMemGuardStopsAnAllocatingCell(t *testing.T) {
	limit := memoryInUse() + 200<<20
	g := &memGuard{limit: limit, log: t.Logf}
	done := make(chan struct{})
	defer close(done)
	go g.watch(done)

	ctx, cancel := context.WithCancelCause(context.Background())
	end := g.begin(nil, cancel)
	var hog [][]byte
	deadline := time.Now().Add(30 * time.Second)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		hog = append(hog, bytes.Repeat([]byte{1}, 1<<20))
	}
	held := int64(len(hog)) << 20
	hog = nil
	stopped := end()
	if stopped == nil {
		t.Fatalf("the cell allocated %s and was not stopped (limit %s)", mib(held), mib(limit))
	}
	if cause := context.Cause(ctx); cause != stopped {
		t.Errorf("cause %v, want the guard's error", cause)
	}
	if stopped.At <= limit || stopped.At > limit+200<<20 {
		t.Errorf("stopped at %s, want just past the limit %s", mib(stopped.At), mib(limit))
	}
	if stopped.After >= stopped.At {
		t.Errorf("after the stop %s, at the stop %s: the cell's memory was not freed", mib(stopped.After), mib(stopped.At))
	}
	// The next cell starts under the limit and is left alone.
	ctx2, cancel2 := context.WithCancelCause(context.Background())
	end2 := g.begin(nil, cancel2)
	time.Sleep(3 * memEvery)
	if end2() != nil || ctx2.Err() != nil {
		t.Errorf("a quiet cell after the stop was stopped")
	}
}

// TestMemGuardReportsGrowthBetweenCells: a goroutine a cell left running allocates after the
// cell ended; the guard reports it once, under that cell, with the figures, and not while the
// kernel stays under its threshold.
func TestMemGuardReportsGrowthBetweenCells(t *testing.T) {
	limit := memoryInUse() + 150<<20
	reports := make(chan *MemoryLimitError, 4)
	var parents []*Header
	g := &memGuard{limit: limit, log: t.Logf, report: func(p *Header, e *MemoryLimitError) {
		parents = append(parents, p)
		reports <- e
	}}
	done := make(chan struct{})
	defer close(done)
	go g.watch(done)

	cell := &Header{MsgID: "cell-1"}
	_, cancel := context.WithCancelCause(context.Background())
	g.begin(cell, cancel)() // the cell ends at once; its goroutine goes on below
	time.Sleep(3 * memEvery)
	select {
	case e := <-reports:
		t.Fatalf("reported %s before anything grew", e.idleText())
	default:
	}

	stop := make(chan struct{})
	grown := make(chan int64)
	go func() { // the leftover goroutine
		var hog [][]byte
		for {
			select {
			case <-stop:
				grown <- int64(len(hog)) << 20
				return
			default:
				hog = append(hog, bytes.Repeat([]byte{1}, 1<<20))
				if len(hog) > 1200 { // 1.2 GiB: past any limit here; wait to be noticed
					time.Sleep(memEvery)
					hog = hog[:1200]
				}
			}
		}
	}()
	var e *MemoryLimitError
	select {
	case e = <-reports:
	case <-time.After(30 * time.Second):
		close(stop)
		t.Fatalf("a goroutine grew to %s between cells (limit %s): no report", mib(<-grown), mib(limit))
	}
	close(stop)
	<-grown
	if e.At <= limit || e.Limit != limit || parents[0] != cell {
		t.Errorf("report %+v under %v, want past %s under the last cell", e, parents[0], mib(limit))
	}
	if txt := e.idleText(); !strings.Contains(txt, "between cells") || !strings.Contains(txt, MemoryLimitEnv) {
		t.Errorf("report text %q", txt)
	}
	time.Sleep(3 * memEvery)
	if len(reports) != 0 {
		t.Errorf("reported %d more times, want once", len(reports))
	}
}
