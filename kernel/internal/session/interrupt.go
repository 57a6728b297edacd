package session

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/traefik/yaegi/interp"
)

// Interrupting a cell, and keeping the earlier cells' functions alive.
//
// yaegi stops a run with one counter: every frame carries the run id it was made under, and
// interpreted code executes only while its frame's id equals the interpreter's. Stopping a run
// (what ExecuteWithContext does when its context ends) increments the interpreter's id, so
// every frame made so far stops at its next step, and closes the channel that blocked channel
// operations select on. Cells' top-level statements run in one global frame whose id the next
// run resets, but a function literal keeps a copy of the frame it was made in, id included. So
// after one interrupt, every function value an earlier cell stored (f := func() bool { return
// true }, a widget's callback, a helper the exercises use) runs nothing and returns zero values:
// false, 0, nil, with no error. A silent wrong answer.
//
// execute therefore stops a run itself, as yaegi does, and puts the id back before the next
// cell or callback runs: the frames of every earlier cell, closures included, match again. The
// id goes back no sooner than reviveWait after the stop, so that the stopped code, the cell's
// own goroutines included, has that long to notice it at its next step and end. Code still
// inside a call of compiled code by then (time.Sleep, a long training step) cannot be stopped
// by anyone: when the call returns, it runs on. Between a cell's top-level statements the
// rewriter's Live checks end it (rewrite.go); inside a function or loop it runs to its end,
// and the next cell's stderr says so when it was the cell's main goroutine. (A check in every
// loop would stop it, at a cost of about 0.6 µs an iteration, several times an interpreted
// loop's own.)

// The fields are yaegi v0.16.1's (Interpreter.id, mutex, done, cancelChan); newYaegiRun fails
// with their names if a later version changes them, and TestClosuresSurviveAnInterrupt fails
// if their meaning changes.

// yaegiRun points at the fields of yaegi's Interpreter that starting and stopping a run use.
type yaegiRun struct {
	id         *uint64        // the run id (atomic)
	mu         *sync.RWMutex  // guards done and cancelChan
	done       *chan struct{} // closed to cancel blocked channel operations
	cancelChan *bool          // channel operations select on done
}

func newYaegiRun(in *interp.Interpreter) (yaegiRun, error) {
	v := reflect.ValueOf(in).Elem()
	field := func(name string, want reflect.Type) (unsafe.Pointer, error) {
		f := v.FieldByName(name)
		if !f.IsValid() || f.Type() != want {
			return nil, fmt.Errorf("session: yaegi's Interpreter has no field %s of type %v: the interrupt code is written for yaegi v0.16.1 (interrupt.go)", name, want)
		}
		return unsafe.Pointer(f.UnsafeAddr()), nil
	}
	var y yaegiRun
	p, err := field("id", reflect.TypeFor[uint64]())
	if err != nil {
		return y, err
	}
	y.id = (*uint64)(p)
	if p, err = field("mutex", reflect.TypeFor[sync.RWMutex]()); err != nil {
		return y, err
	}
	y.mu = (*sync.RWMutex)(p)
	if p, err = field("done", reflect.TypeFor[chan struct{}]()); err != nil {
		return y, err
	}
	y.done = (*chan struct{})(p)
	if p, err = field("cancelChan", reflect.TypeFor[bool]()); err != nil {
		return y, err
	}
	y.cancelChan = (*bool)(p)
	return y, nil
}

// stoppedRun is a run that was stopped and whose id has not been put back yet.
type stoppedRun struct {
	id    uint64        // the id the interpreter had before the stop
	at    time.Time     // when it was stopped
	ended chan struct{} // closed when the run's goroutine returned
	cell  int           // the cell it ran
	// interrupted: stopped from outside (an interrupt_request, a deadline). The session's own
	// stops (os.Exit, a refused print, a goroutine's panic) park the goroutine that caused
	// them, so that one never ends, and there is nothing to say about it.
	interrupted bool
}

// reviveWait is how long stopped code gets to notice the stop before the id goes back.
const reviveWait = 300 * time.Millisecond

// execute runs a compiled piece until it ends or ctx is done.
// Execute and RunCallback, its only callers, have put back the id of an earlier stop (revive).
func (s *Session) execute(ctx context.Context, prog *interp.Program) error {
	y := s.yaegi
	y.mu.Lock()
	*y.done = make(chan struct{})
	*y.cancelChan = true
	y.mu.Unlock()

	ended := make(chan struct{})
	var err error
	go func() {
		defer close(ended)
		returned := false
		defer func() {
			if r := recover(); r != nil {
				err = interp.Panic{Value: r}
			} else if !returned {
				err = errGoexit
			}
		}()
		_, err = s.in.Execute(prog)
		returned = true
	}()
	select {
	case <-ended:
		if err == nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		return err
	case <-ctx.Done():
	}
	// Stop the run as yaegi's own stop does, and give it a moment to end.
	cause := context.Cause(ctx)
	stopped := &stoppedRun{id: atomic.LoadUint64(y.id), at: time.Now(), ended: ended, cell: s.cells,
		interrupted: errors.Is(cause, context.Canceled) || errors.Is(cause, context.DeadlineExceeded)}
	atomic.AddUint64(y.id, 1)
	y.mu.Lock()
	close(*y.done)
	y.mu.Unlock()
	s.stopped = stopped
	select {
	case <-ended:
	case <-time.After(reviveWait):
	}
	return ctx.Err()
}

// revive puts back the run id of the last stopped run, so that the frames and function values
// of earlier cells run again (see the top of this file); it first waits out the rest of
// reviveWait. When the stopped cell's goroutine is still inside compiled code, it says so on
// sink's stderr and in the kernel's log.
func (s *Session) revive(sink Sink) {
	r := s.stopped
	if r == nil {
		return
	}
	s.stopped = nil
	time.Sleep(time.Until(r.at.Add(reviveWait)))
	select {
	case <-r.ended:
	default:
		if !r.interrupted {
			break
		}
		fmt.Fprintf(LogWriter(), "session: interrupted cell #%d is still inside a call of compiled code\n", r.cell)
		sink.Stream("stderr", fmt.Sprintf("note: execution #%d was interrupted inside a call of compiled code, which cannot be stopped; "+
			"when that call returns, the function or loop it was in runs on to its end\n", r.cell))
	}
	atomic.StoreUint64(s.yaegi.id, r.id)
}

// live stops the calling goroutine for good when cell is no longer the one running (it was
// interrupted, or failed, and yaegi would otherwise let it resume; see rewrite.go). It parks the
// goroutine rather than ending it: runtime.Goexit would run the stopped cell's deferred calls,
// and after an interrupt the run id is put back (interrupt.go), so they would run, printing into
// whatever cell runs then.
func (s *Session) live(cell int) {
	s.runMu.Lock()
	r := s.running
	s.runMu.Unlock()
	if r == nil || r.id != cell || r.stopped.Load() {
		park()
	}
}

// StopGoroutines stops, between cells, the goroutines earlier cells left running, as an
// interrupt stops a cell's: the run id moves on, so each ends at its next step (one inside a
// call of compiled code ends when the call returns), and the next cell or callback puts the id
// back (revive) so that earlier cells' functions run again. It reports false, doing nothing,
// while a cell or callback runs: that run has its own guards. The kernel's memory guard calls it
// when a leftover goroutine takes the kernel past its limit (kernel/memlimit.go).
func (s *Session) StopGoroutines() bool {
	if !s.mu.TryLock() {
		return false
	}
	defer s.mu.Unlock()
	if s.stopped != nil { // already stopped since the last run: nothing of it runs
		return true
	}
	y := s.yaegi
	ended := make(chan struct{})
	close(ended) // no run of a cell to wait for
	s.stopped = &stoppedRun{id: atomic.LoadUint64(y.id), at: time.Now(), ended: ended, cell: s.cells}
	atomic.AddUint64(y.id, 1)
	y.mu.Lock()
	select {
	case <-*y.done: // closed by an earlier stop
	default:
		close(*y.done)
	}
	y.mu.Unlock()
	return true
}
