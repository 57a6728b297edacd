package kernel

import (
	"context"
	"fmt"
	"runtime/metrics"
)

// A recursion without end, in Go, grows its goroutine's stack until the runtime's maximum (1 GB
// on 64-bit systems), and then the runtime ends the whole process: "fatal error: stack
// overflow" cannot be recovered. In a kernel that is every variable of the session lost, and
// in `gptnotes grade` a kernel gone, with the runtime's message lost on the captured fd 2.
//
// So while a cell runs the kernel watches the memory its goroutines' stacks take, as it
// watches the memory limit, and stops the cell as an interrupt stops it once they pass a
// threshold well below the runtime's maximum: the cell fails with a StackOverflow error the
// student can read, and the kernel goes on. A stack grows by doubling, so the largest one the
// runtime allows is 512 MiB; at the default threshold of 256 MiB the recursion must still fill
// 384 MiB of stack before the runtime would end it, which an interpreted recursion takes far
// longer than the guard's period (memEvery) to do.

// defaultStackLimit is the stack memory past which a running cell is stopped.
const defaultStackLimit = 256 << 20

// stackLimitFor is the stack threshold with a memory limit of mem bytes (0: none): the default,
// or a quarter of mem (a power of two, at least 16 MiB) when that is less, so that a recursion
// meets the stack guard before the memory guard, which would call it a memory problem.
func stackLimitFor(mem int64) int64 {
	limit := int64(defaultStackLimit)
	for mem > 0 && limit > mem/4 && limit > 16<<20 {
		limit /= 2
	}
	return limit
}

// A StackOverflowError is why a cell was stopped: its goroutines' stacks grew past the limit.
type StackOverflowError struct {
	Limit int64 // bytes, e.g. 256 << 20
	At    int64 // how much the stacks had grown since the cell started
}

func (e *StackOverflowError) Error() string { return "StackOverflow: " + e.value() }

func (e *StackOverflowError) value() string {
	return fmt.Sprintf("stack overflow (recursion too deep): the cell's goroutine stacks grew by %s, past the kernel's limit of %s, "+
		"and the cell was stopped; look for a recursive function that does not reach its base case", mib(e.At), mib(e.Limit))
}

func (e *StackOverflowError) cellError() *CellError {
	v := e.value()
	return &CellError{Name: "StackOverflow", Value: v, Traceback: []string{"StackOverflow: " + v,
		"The kernel goes on: variables keep the values they had when the cell stopped."}}
}

// watchStack stops the running cell, through cancel, when the goroutines' stacks have grown by
// more than limit since it started (not counted: the stack of an earlier cell's goroutine that
// is parked, stopped, until a collection shrinks it); it checks every memEvery until the
// returned function is called.
func watchStack(limit int64, cancel context.CancelCauseFunc) (stop func()) {
	done := make(chan struct{})
	before := stackInUse()
	go poll(done, func() bool {
		used := stackInUse()
		if used-before > limit {
			cancel(&StackOverflowError{Limit: limit, At: used - before})
		}
		return used-before > limit
	})
	return func() { close(done) }
}

// stackInUse is the memory the Go runtime holds for goroutine stacks.
func stackInUse() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
