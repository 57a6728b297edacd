// Package engine is the Go interpreter a kernel runs cells with, as a kernel.Engine: the session
// of kernel/internal/session (yaegi, the cell rewriter, output capture, the symbol tables of the
// plugins). It is its own package so that package kernel stays free of the interpreter (its wire
// and dispatch tests need none) and the binary, cmd/gptnotes, can plug the session in from
// outside kernel/.
//
//	e, err := engine.New()
//	k := kernel.New(conn, e, engine.LogWriter())
//	err = k.Run(ctx)
package engine

import (
	"io"

	"github.com/gptnotes/gptnotes/kernel"
	"github.com/gptnotes/gptnotes/kernel/internal/session"
)

// New starts an interpreter session with the plugins imported. It runs cells and widget
// callbacks (the Engine is also a kernel.CallbackRunner); a failing cell's error is a
// *kernel.CellError.
func New() (kernel.Engine, error) {
	s, err := session.New()
	if err != nil {
		return nil, err // not a nil *Session in a non-nil Engine
	}
	return s, nil
}

// LogWriter returns the process's standard error as it was before the session captured
// descriptors 1 and 2 for cells' output: where the kernel's own log lines go.
func LogWriter() io.Writer { return session.LogWriter() }
