// Package engine is the Go interpreter a kernel runs cells with, as a kernel.Engine: the session
// of kernel/internal/session (yaegi, the cell rewriter, output capture, the symbol tables of the
// plugins) behind the two interfaces package kernel routes to. It is its own package so that
// package kernel stays free of the interpreter (its wire and dispatch tests need none) and the
// binary, cmd/gptnotes, can plug the session in from outside kernel/.
//
//	e, err := engine.New()
//	k := kernel.New(conn, e, engine.LogWriter())
//	err = k.Run(ctx)
package engine

import (
	"context"
	"errors"
	"io"

	"github.com/gptnotes/gptnotes/kernel"
	"github.com/gptnotes/gptnotes/kernel/display"
	"github.com/gptnotes/gptnotes/kernel/internal/session"
)

// Engine runs cells and widget callbacks in one interpreter session.
type Engine struct{ s *session.Session }

// New starts an interpreter session with the plugins imported.
func New() (*Engine, error) {
	s, err := session.New()
	if err != nil {
		return nil, err
	}
	return &Engine{s}, nil
}

// LogWriter returns the process's standard error as it was before the session captured
// descriptors 1 and 2 for cells' output: where the kernel's own log lines go.
func LogWriter() io.Writer { return session.LogWriter() }

// Execute runs one cell (kernel.Engine); a cell's error becomes a kernel.CellError.
func (e *Engine) Execute(ctx context.Context, code string, sink kernel.Sink) (*display.Bundle, error) {
	result, err := e.s.Execute(ctx, code, sink)
	return result, cellError(err)
}

// RunCallback runs a widget's callback as a cell runs (kernel.CallbackRunner).
func (e *Engine) RunCallback(ctx context.Context, f func(), sink kernel.Sink) error {
	return cellError(e.s.RunCallback(ctx, f, sink))
}

// Complete lists the completions at cursor (kernel.Engine).
func (e *Engine) Complete(code string, cursor int) (matches []string, start, end int) {
	return e.s.Complete(code, cursor)
}

// Inspect returns the documentation of the name at cursor (kernel.Engine).
func (e *Engine) Inspect(code string, cursor int, detailLevel int) (data map[string]any, found bool) {
	return e.s.Inspect(code, cursor, detailLevel)
}

// IsComplete says whether code is a complete cell, and the indent to continue with (kernel.Engine).
func (e *Engine) IsComplete(code string) (status, indent string) { return e.s.IsComplete(code) }

// cellError turns the session's CellError into the kernel's, and passes other errors through.
func cellError(err error) error {
	var ce *session.CellError
	if errors.As(err, &ce) {
		return &kernel.CellError{Name: ce.Name, Value: ce.Value, Traceback: ce.Traceback}
	}
	return err
}

var (
	_ kernel.Engine         = (*Engine)(nil)
	_ kernel.CallbackRunner = (*Engine)(nil)
)
