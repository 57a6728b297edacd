package session

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"strings"
	"testing"
	"time"
)

// FuzzCell takes any source through every pass before the interpreter (prepare): it either
// fails with a cell error or gives pieces that print as Go that parses again. It never panics
// and never hangs. Seeded with the cells of testdata/cells.
func FuzzCell(f *testing.F) {
	for _, p := range cellPrograms(f) {
		for _, cell := range p.cells {
			f.Add(cell)
		}
	}
	args := os.Args // a session gives the process a program's command line; the fuzzer needs its own
	s := newSession(f)
	os.Args = args
	// prepare runs no cell: give fds 1 and 2 back to the fuzzing worker, so that anything it
	// writes as it dies (a fatal error, a stack overflow) reaches the fuzzer's log.
	stopCapture()
	f.Fuzz(func(t *testing.T, code string) {
		done := make(chan struct{})
		var c *cellCtx
		var err error
		go func() {
			defer close(done)
			c, err = s.prepare(scopeFile, code, 1)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("prepare hangs on %q", code)
		}
		if err != nil {
			if _, ok := err.(*CellError); !ok && !isWait(err) { // a waitError: declarations that wait (waiting.go)
				t.Fatalf("prepare(%q) failed with %T, not a *CellError: %v", code, err, err)
			}
			return
		}
		for _, p := range c.pieces {
			var b strings.Builder
			fset := token.NewFileSet()
			if p.kind == declPiece {
				if err := printer.Fprint(&b, s.fset, p.file); err != nil {
					t.Fatalf("print: %v", err)
				}
				if _, err := parser.ParseFile(fset, "", b.String(), 0); err != nil {
					t.Fatalf("cell %q rewrote to declarations that do not parse: %v\n%s", code, err, b.String())
				}
				continue
			}
			if err := printer.Fprint(&b, s.fset, &ast.FuncDecl{Name: ast.NewIdent("_"), Type: &ast.FuncType{Params: &ast.FieldList{}}, Body: p.body}); err != nil {
				t.Fatalf("print: %v", err)
			}
			if _, err := parser.ParseFile(fset, "", "package main\n"+b.String(), 0); err != nil {
				t.Fatalf("cell %q rewrote to statements that do not parse: %v\n%s", code, err, b.String())
			}
		}
	})
}
