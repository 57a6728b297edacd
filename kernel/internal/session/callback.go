package session

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/gptnotes/gptnotes/kernel/display"
)

// RunCallback runs f, compiled code that a message from the front end triggers (a widget's
// callback), the way a cell runs: one at a time with cells, its output captured to sink,
// display calls publishing there, and a cancelled ctx stopping the interpreted code f calls.
// For that last, f is called from inside the interpreter (a one-line program calling back into
// the cell runtime): cancelling a run stops every interpreted frame of it, including those of
// a callback written in a cell. A panic in f is returned as a *CellError.
func (s *Session) RunCallback(ctx context.Context, f func(), sink Sink) (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	run := &cellRun{id: s.cells, sink: sink, cancel: cancel}
	s.setRunning(run)
	flushCapture()
	setSink(sink)
	display.SetPublisher(displayPublisher(sink))
	defer func() {
		run.stopped.Store(true)
		flushCapture()
		display.SetPublisher(nil)
		setSink(nil)
		s.setRunning(nil)
	}()
	s.revive(sink)
	if s.callbackProg == nil {
		if s.callbackProg, err = s.compileCallback(); err != nil {
			return fmt.Errorf("session: callback program: %w", err)
		}
	}
	// The interpreter runs f on a goroutine of its own; f's end (and panic) comes back on a
	// channel. An interrupt returns at once, and the interpreted frames stop at their next
	// step: wait for that, so nothing of the callback runs on beside the next request (only
	// compiled code that never returns is left behind, after abandonCallback).
	done := make(chan any, 1)
	s.callback.Store(&callbackFunc{f: func() {
		defer func() { done <- recover() }()
		f()
	}})
	err = s.execute(ctx, s.callbackProg)
	s.callback.Store(nil)
	var panicked any
	if ctx.Err() != nil {
		select {
		case <-done:
		case <-time.After(abandonCallback):
			fmt.Fprintln(LogWriter(), "session: an interrupted callback is still running (compiled code)")
		}
	} else {
		select {
		case panicked = <-done:
		default:
		}
	}
	if p, ok := err.(interp.Panic); ok && panicked == nil {
		panicked = p.Value
	}
	if panicked != nil {
		v := fmt.Sprint(panicked)
		return &CellError{Name: "panic", Value: v, Traceback: []string{"panic: " + v}}
	}
	return err
}

// abandonCallback is how long an interrupted callback gets to stop.
const abandonCallback = 2 * time.Second

// A callbackFunc is the function RunCallback is running.
type callbackFunc struct{ f func() }

// compileCallback compiles the statement calling the runtime's RunCallback, in the cells' file
// scope (where the prelude imported the runtime), as a cell's statements are compiled.
func (s *Session) compileCallback() (*interp.Program, error) {
	src := "package main\nfunc _() {\n" + runtimeName + ".RunCallback()\n}"
	f, err := parser.ParseFile(s.fset, scopeFile, src, 0)
	if err != nil {
		return nil, err
	}
	return s.compile(f.Decls[0].(*ast.FuncDecl).Body)
}

// runCallback is the cell runtime's RunCallback: it calls the function RunCallback is running.
func (s *Session) runCallback() {
	if c := s.callback.Load(); c != nil {
		c.f()
	}
}

// Flush forwards what was written so far before returning (display.Flush).
func (p orderedPublisher) Flush() { flushCapture() }

// runtimeName is the name the prelude imports the cell runtime under.
const runtimeName = "__gptnotes"
