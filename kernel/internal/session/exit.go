package session

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// exit is os.Exit for cells. A Go program's os.Exit ends the process at once: no deferred call
// runs, and no recover can stop it. In the kernel it ends the running cell (with an Exit error)
// and must not run deferred calls either, so it cannot panic (a panic runs them, and a deferred
// recover would swallow it), nor use runtime.Goexit (which runs them too). It stops the calling
// goroutine instead, for good: it cancels the cell's context with exitError as the cause and
// parks the goroutine (park). yaegi runs a cell in a goroutine of its own (ExecuteWithContext)
// and, on the cancellation, returns to Execute and stops the cell's other interpreted code (its
// frames' run id no longer matches), as an interrupt does; Execute then skips the cell's
// top-level defers (runDefers). Whatever goroutine calls it (the cell's own, one the cell
// started, one of an earlier cell) ends the cell that is running, as os.Exit in any goroutine ends
// a program. With no cell running, the call is logged and its goroutine parked.
//
// The parked goroutine keeps its stack, and whatever it references, until the kernel ends; and
// any lock it holds stays held (yaegi runs a function's deferred calls holding that call's frame
// lock: a closure of that call would block). That is the price of not running its defers.
func (s *Session) exit(code int) {
	if onKernelStack() {
		// Called by the kernel's own goroutine (rendering a result called a String method
		// that exits): parking it would stop the kernel. Fail the rendering instead.
		panic(exitError{code})
	}
	s.endRunning(exitError{code}, fmt.Sprintf("os.Exit(%d) called while no cell runs", code),
		func(r *cellRun) { exitOf(r).set(code) })
}

// endRunning ends the running cell with cause (before, first calls mark on it, if not nil) and
// parks the calling goroutine. Called by a goroutine of an earlier cell while no cell runs, it
// logs what (what happened) and parks the goroutine all the same.
func (s *Session) endRunning(cause error, what string, mark func(*cellRun)) {
	s.runMu.Lock()
	r := s.running
	s.runMu.Unlock()
	if r != nil && !r.stopped.Load() {
		if mark != nil {
			mark(r)
		}
		r.cancel(cause)
	} else {
		fmt.Fprintf(LogWriter(), "session: %s (by a goroutine of an earlier cell); the goroutine is parked\n", what)
	}
	park()
}

// parked counts the goroutines os.Exit stopped.
var parked atomic.Int64

// park blocks the calling goroutine forever (see exit).
func park() {
	parked.Add(1)
	select {}
}

// onKernelStack reports whether the caller runs on Execute's own goroutine rather than on one of
// the interpreter's.
func onKernelStack() bool {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.Function, "/kernel/internal/session.(*Session).Execute") {
			return true
		}
		if !more {
			return false
		}
	}
}

// An exitState records that os.Exit ended a cell run, and its code.
type exitState struct {
	once sync.Once
	code int
	done chan struct{} // closed by set
}

// exits maps a running *cellRun to its *exitState, from the first os.Exit or runDefers on;
// runDefers, at the cell's end, removes it. (An os.Exit in a goroutine that races the very end of
// its cell, after runDefers, leaves its small entry behind.)
var exits sync.Map

func exitOf(r *cellRun) *exitState {
	st, _ := exits.LoadOrStore(r, &exitState{done: make(chan struct{})})
	return st.(*exitState)
}

func (st *exitState) set(code int) {
	st.once.Do(func() { st.code = code; close(st.done) })
}

func (st *exitState) exited() (code int, ok bool) {
	select {
	case <-st.done:
		return st.code, true
	default:
		return 0, false
	}
}

// exitError is os.Exit called from a cell: the cause its context is cancelled with
// (exit), or a panic value when the call came on Execute's own goroutine.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("os.Exit(%d)", e.code) }
