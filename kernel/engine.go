package kernel

import (
	"context"

	"github.com/gptnotes/gptnotes/kernel/display"
)

// An Engine runs cells and answers questions about code: the session layer
// (kernel/internal/session, as package kernel/engine), which cmd/gptnotes plugs in. The kernel
// only routes to it.
type Engine interface {
	// Execute runs code, sending its outputs to sink as they happen. result is the bundle of
	// a trailing expression (Out[n]), nil without one; a failing cell returns a *CellError;
	// cancelling ctx interrupts the cell.
	Execute(ctx context.Context, code string, sink Sink) (result *display.Bundle, err error)
	// Complete, Inspect and IsComplete count cursor positions in unicode code points.
	Complete(code string, cursor int) (matches []string, start, end int)
	Inspect(code string, cursor int, detailLevel int) (data map[string]any, found bool)
	IsComplete(code string) (status, indent string)
}

// A Sink receives the running cell's outputs: stdout/stderr text, displays, clear_output.
type Sink interface {
	Stream(name, text string) // name is "stdout" or "stderr"
	display.Publisher
}

// A CellError is how a cell fails: the ename, evalue and traceback lines the notebook shows.
type CellError struct {
	Name, Value string
	Traceback   []string
}

func (e *CellError) Error() string { return e.Name + ": " + e.Value }
