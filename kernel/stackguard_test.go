package kernel

import (
	"context"
	"strings"
	"testing"
	"time"
)

// deep recurses, with a frame of about 1 KiB, until ctx is done, as an interpreted recursion
// does until the interpreter's run id changes; it returns how deep it went.
func deep(ctx context.Context, n int) int {
	var frame [1 << 10]byte
	frame[n%len(frame)] = byte(n)
	if ctx.Err() != nil {
		return n
	}
	return max(deep(ctx, n+1), int(frame[0]))
}

// TestStackGuardStopsARecursion runs the guard on this process: a "cell" that recurses until
// its context is cancelled is stopped, with a StackOverflowError as the cause, soon after the
// stacks pass the limit and long before the runtime's own maximum.
func TestStackGuardStopsARecursion(t *testing.T) {
	limit := int64(32 << 20)
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := watchStack(limit, cancel)
	defer stop()
	done := make(chan int)
	go func() { done <- deep(ctx, 0) }()
	var depth int
	select {
	case depth = <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("the recursion was not stopped (limit %s)", mib(limit))
	}
	e, ok := context.Cause(ctx).(*StackOverflowError)
	if !ok {
		t.Fatalf("cause %v, want a StackOverflowError", context.Cause(ctx))
	}
	if e.At <= limit || e.At > 4*limit {
		t.Errorf("stopped at %s of stacks, want just past the limit %s", mib(e.At), mib(limit))
	}
	t.Logf("stopped at depth %d, %s of stacks (limit %s)", depth, mib(e.At), mib(limit))
	if v := e.cellError().Value; !strings.Contains(v, "stack overflow (recursion too deep)") {
		t.Errorf("the error says %q", v)
	}
	// A quiet cell is left alone.
	ctx2, cancel2 := context.WithCancelCause(context.Background())
	stop2 := watchStack(limit, cancel2)
	time.Sleep(3 * memEvery)
	stop2()
	if ctx2.Err() != nil {
		t.Errorf("a quiet cell was stopped: %v", context.Cause(ctx2))
	}
}

func TestStackLimitFor(t *testing.T) {
	for mem, want := range map[int64]int64{0: 256 << 20, 4 << 30: 256 << 20, 768 << 20: 128 << 20, 512 << 20: 128 << 20, 100 << 20: 16 << 20} {
		if got := stackLimitFor(mem); got != want {
			t.Errorf("stackLimitFor(%s) = %s, want %s", mib(mem), mib(got), mib(want))
		}
	}
}
