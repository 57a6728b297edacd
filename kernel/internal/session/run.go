package session

import (
	"context"
	"fmt"
	"go/ast"
	"strings"

	"github.com/gptnotes/gptnotes/kernel/display"
	"github.com/traefik/yaegi/interp"
)

// runSafe is run, with a panic of the kernel's own code (a rewrite meeting a syntax it did not
// expect) turned into the cell's error instead of the end of the kernel.
func (s *Session) runSafe(ctx context.Context, r *cellRun, code string) (trailing bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(LogWriter(), "session: internal error on cell %q: %v\n", code, p)
			v := fmt.Sprintf("the kernel failed on this cell: %v (please report it, with the cell)", p)
			trailing, err = false, &CellError{Name: "InternalError", Value: v, Traceback: []string{"InternalError: " + v}}
		}
	}()
	return s.run(ctx, r, scopeFile, code)
}

// run takes one cell through the passes, in the order of the files that hold them:
//
//	cell.go       split into pieces and parse them, in the cell's coordinates
//	typecheck.go  type-check them with go/types against the session (Go's own errors)
//	refuse.go     refuse what the interpreter cannot run, naming it and the way around it
//	plan.go       work out what the cell changes in the session's declarations
//	rewrite.go    rewrite what the interpreter runs wrongly into what it runs right (passes.go)
//	compile.go    compile every piece, then run them in order (evaluate, below)
//	diagnose.go   explain a failure that comes from a known gap
//
// It reports whether the cell ended with an expression whose value was captured.
func (s *Session) run(ctx context.Context, r *cellRun, name, code string) (trailing bool, err error) {
	c, err := s.prepare(name, code, r.id)
	if undefined := undefinedNames(c, err); len(undefined) > 0 {
		if with := s.waitingDeclaring(undefined); with != "" {
			// The cell uses what waiting cells declare: they run with it, after its own lines.
			if c2, err2 := s.prepare(name, code+"\n"+with, r.id); err2 == nil || isWait(err2) {
				c, err = c2, err2
			}
		}
	}
	if we, ok := err.(*waitError); ok {
		s.wait(we.cell) // declarations that use what a later cell declares (waiting.go)
		r.sink.Stream("stderr", we.cell.note())
		return false, nil
	}
	if err != nil {
		return false, err
	}
	trailing, err = c.evaluate(ctx, r, c.change)
	if err == nil {
		declared := c.change.declaredNames()
		s.dropWaiting(declared)
		s.resume(ctx, r, declared)
	}
	return trailing, err
}

// evaluate compiles every piece of the cell, and only then runs them in order: a cell that
// fails to compile leaves the session as it was (its names are taken back), a cell that fails
// while running keeps what ran before the failure.
func (c *cellCtx) evaluate(ctx context.Context, r *cellRun, ch *change) (trailing bool, err error) {
	s := c.s
	snap := s.snapshot()
	s.forget(ch.forget...)
	fail := func(err error) (bool, error) {
		s.restore(snap)
		return false, err
	}
	pieces := c.pieces
	progs := make([]*interp.Program, len(pieces))
	var declProgs []*interp.Program // the statement pieces' variables, declared first
	lastDecl := -1
	for i := range pieces {
		if pieces[i].kind == declPiece {
			lastDecl = i
		}
	}
	for i := range pieces {
		p := &pieces[i]
		last := i == len(pieces)-1
		var node ast.Node
		switch p.kind {
		case declPiece:
			if !c.prepareDecls(p) {
				if i == lastDecl {
					if err := c.replay(ch); err != nil {
						return fail(err)
					}
				}
				continue
			}
			node = p.file
		case stmtPiece:
			if last && c.checked.trailingValue {
				trailing = c.captureTrailing(p)
			}
			c.wrapForDefer(p)
			node = p.body
			if decls := hoistVarDecls(p.body); decls != nil {
				prog, err := s.compile(decls)
				if err != nil {
					return fail(c.compileError(err))
				}
				declProgs = append(declProgs, prog)
			}
		}
		prog, err := s.compile(node)
		if err != nil && trailing && last && isVoidResult(err) {
			c.uncaptureTrailing(p)
			trailing = false
			prog, err = s.compile(node)
		}
		if err != nil {
			return fail(c.compileError(err))
		}
		progs[i] = prog
		if p.kind == declPiece {
			ch.keepCompiled(p)
		}
		if i == lastDecl {
			if err := c.replay(ch); err != nil {
				return fail(err)
			}
		}
	}
	if lastDecl < 0 {
		if err := c.replay(ch); err != nil {
			return fail(err)
		}
	}
	s.stateMu.Lock()
	for i := range pieces {
		c.record(&pieces[i])
	}
	c.recordRebound()
	c.commit(ch)
	s.stateMu.Unlock()
	if note := ch.report(); note != "" {
		r.sink.Stream("stderr", note)
	}
	for _, prog := range append(declProgs, progs...) {
		if prog == nil {
			continue
		}
		if err := s.execute(ctx, prog); err != nil {
			return false, s.runtimeError(ctx, err)
		}
	}
	return trailing, nil
}

// replay compiles again the earlier declarations that use what the cell redefined.
func (c *cellCtx) replay(ch *change) error {
	for _, d := range ch.replay {
		if d.yaegi == nil {
			continue
		}
		prog, err := c.s.compile(d.yaegi)
		if err == nil {
			err = c.s.execute(context.Background(), prog) // binds the functions it declares
		}
		if err != nil {
			return compileErrorText(d.describe() + " (declared earlier) could not be compiled again for this cell's change: " + err.Error())
		}
	}
	ch.replay = nil
	return nil
}

func (s *Session) setRunning(r *cellRun) {
	s.runMu.Lock()
	s.running = r
	s.runMu.Unlock()
}

// renderResults renders the values of a trailing expression: one value as itself, several like
// fmt.Println would print them (as text, which cannot panic). A renderer of one value that
// panics (an HTML method on a nil pointer) gives its text/plain with the panic instead of
// taking the kernel down.
func renderResults(vals []any) (b display.Bundle) {
	defer func() {
		if p := recover(); p != nil {
			text := fmt.Sprintf("%s\n(rendering it panicked: %v)", display.Plain(vals[0]), p)
			b = display.Bundle{Data: map[string]any{display.MIMEPlain: text}, Metadata: map[string]any{}}
		}
	}()
	if len(vals) == 1 {
		return display.Render(vals[0])
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = display.Plain(v)
	}
	return display.Render(strings.Join(parts, " "))
}
