package session

import (
	"context"
	_ "embed"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	pathpkg "path"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/traefik/yaegi/interp"

	"github.com/gptnotes/gptnotes/kernel/display"
	"github.com/gptnotes/gptnotes/kernel/symbols"
	"github.com/gptnotes/gptnotes/kernel/symbols/stdlib"
)

// A Sink receives the running cell's outputs as they happen.
type Sink interface {
	Stream(name, text string) // name "stdout" or "stderr"
	display.Publisher
}

// A Session is one interpreter and the state cells build in it. Its methods are safe for
// concurrent use; cells run one at a time.
type Session struct {
	mu    sync.Mutex // held by Execute: one cell at a time
	in    *interp.Interpreter
	fset  *token.FileSet
	cells int // cells executed

	// What the cells declared so far, for rewrites, completion and inspection. Written by
	// Execute (under stateMu), read by Complete and Inspect (under stateMu.RLock).
	stateMu  sync.RWMutex
	imports  map[string]string // "path" or "alias path" → name it is used under
	types    map[string]string // type name → source of its declaration
	methods  map[string]map[string]*ast.FuncDecl
	funcs    map[string]*ast.FuncDecl // top-level functions
	varTypes map[string]string        // global variable → name of its cell-declared type
	typed    typeState                // the session's package, as the type check sees it
	imp      *importer                // the compiled packages' types, for the check
	pkgNames map[string]string        // compiled packages: import path → package name

	packages map[string]map[string]reflect.Value // compiled packages: import path → symbols

	runMu   sync.Mutex
	running *cellRun // the cell now executing, nil between cells

	trace traceBuffer // yaegi's interpreted panic frames, see stderrFilter

	yaegi   yaegiRun    // the interpreter's run id and cancel channel (interrupt.go)
	stopped *stoppedRun // the last interrupted run, until its id is put back (interrupt.go)

	callbackProg *interp.Program              // calls RunCallback's function from inside the interpreter
	callback     atomic.Pointer[callbackFunc] // that function, while RunCallback runs
}

// cellRun is the state of one executing cell.
type cellRun struct {
	id      int
	sink    Sink
	cancel  context.CancelCauseFunc
	results []any          // values of the trailing expression, set by the cell runtime
	mime    map[string]any // outputs of its renderer methods, for a cell-declared type
	gotRes  bool
	defers  []func()    // top-level deferred calls, run when the cell ends
	stopped atomic.Bool // interrupted or failed: its code must not run on
}

// CellError is a cell's failure as Jupyter shows it: ename, evalue, traceback.
type CellError struct {
	Name      string
	Value     string
	Traceback []string
}

func (e *CellError) Error() string { return e.Name + ": " + e.Value }

// New starts an interpreter with the standard library (package symbols/stdlib: that of the Go
// building the kernel), the plugins of package symbols and the kernel's prelude. The first New
// in a process redirects fds 1 and 2 into the capture pipes.
func New() (*Session, error) {
	if err := startCapture(); err != nil {
		return nil, err
	}
	s := &Session{
		imports:  map[string]string{},
		types:    map[string]string{},
		methods:  map[string]map[string]*ast.FuncDecl{},
		funcs:    map[string]*ast.FuncDecl{},
		varTypes: map[string]string{},
	}
	s.in = interp.New(interp.Options{
		Stdout: cellStdout, // ordered with the cell's stderr (capture.go)
		Stderr: &stderrFilter{s: s},
		Args:   []string{"gptnotes"},
		// A notebook is the user's own program: it sees the environment (os.Getenv, the
		// variables exec'd commands inherit), as ipykernel's cells do.
		Unrestricted: true,
	})
	s.fset = s.in.FileSet()
	y, err := newYaegiRun(s.in)
	if err != nil {
		return nil, err
	}
	s.yaegi = y
	s.packages = map[string]map[string]reflect.Value{}
	s.pkgNames = map[string]string{}
	s.typed.vars = map[string]*stateVar{}
	s.imp = newImporter(s.packages, s.pkgNames, sourcePackages)
	for _, syms := range []interp.Exports{stdlib.Symbols, symbols.Symbols, s.runtimeSymbols()} {
		if err := s.use(syms); err != nil {
			return nil, err
		}
	}
	if err := s.evalPrelude(); err != nil {
		return nil, fmt.Errorf("session: prelude: %w", err)
	}
	for path, src := range sourcePackages {
		if _, err := s.in.Compile(src); err != nil {
			return nil, fmt.Errorf("session: package %s: %w", path, err)
		}
	}
	for i, src := range symbols.Preludes {
		if _, err := s.Execute(context.Background(), src, discard{}); err != nil {
			return nil, fmt.Errorf("session: plugin prelude %d: %w", i, err)
		}
	}
	return s, nil
}

// yaegiHooks is the import path of the hooks a table can give yaegi (package stdlib's conversions
// for unsafe.Pointer): no package.
const yaegiHooks = "github.com/traefik/yaegi"

// use makes compiled packages importable by cells: yaegi symbol tables keyed "path/name".
func (s *Session) use(syms interp.Exports) error {
	if err := s.in.Use(syms); err != nil {
		return fmt.Errorf("session: load symbols: %w", err)
	}
	for key, m := range syms {
		path, name := pathpkg.Dir(key), pathpkg.Base(key) // as yaegi reads it ("fmt/./fmt" is fmt)
		if path == "." || path == runtimePath || path == yaegiHooks {
			continue // "." holds yaegi's interface wrapper map, not a package
		}
		s.pkgNames[path] = name
		if s.packages[path] == nil {
			s.packages[path] = map[string]reflect.Value{}
		}
		for name, v := range m {
			s.packages[path][name] = v
		}
	}
	return nil
}

// Execute runs one cell. Its output streams to sink while it runs; display calls from the cell
// publish to sink. The result is the rendering of a trailing expression (nil when there is none).
// A failing cell returns a *CellError; a cancelled ctx interrupts the cell. The session keeps every
// earlier cell's state whatever happens.
func (s *Session) Execute(ctx context.Context, code string, sink Sink) (result *display.Bundle, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cells++
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	run := &cellRun{id: s.cells, sink: sink, cancel: cancel}
	s.setRunning(run)
	flushCapture() // output written between cells goes to the log, not to this cell
	setSink(sink)
	display.SetPublisher(displayPublisher(sink))
	defer func() {
		run.stopped.Store(true)
		flushCapture()
		display.SetPublisher(nil)
		setSink(nil)
		s.setRunning(nil)
	}()
	s.trace.take()
	s.revive(sink) // the earlier cells' functions run again after an interrupt (interrupt.go)

	trailing, err := s.runSafe(ctx, run, code)
	s.dropCompiled()
	err = s.runDefers(run, err)
	if err != nil {
		return nil, err
	}
	if !trailing || !run.gotRes {
		return nil, nil
	}
	b := renderResults(run.results)
	for k, v := range run.mime {
		b.Data[k] = v
	}
	return &b, nil
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
//	cell.go     split into pieces and parse them, in the cell's coordinates
//	check.go    type-check them with go/types against the session (Go's own errors)
//	gaps.go     refuse what the interpreter cannot run, naming it and the way around it
//	state.go    work out what the cell changes in the session's declarations
//	rewrite.go  rewrite what the interpreter runs wrongly into what it runs right
//	session.go  compile every piece, then run them in order (evaluate)
//
// It reports whether the cell ended with an expression whose value was captured.
func (s *Session) run(ctx context.Context, r *cellRun, name, code string) (trailing bool, err error) {
	c, err := s.prepare(name, code, r.id)
	if err != nil {
		return false, err
	}
	return c.evaluate(ctx, r, c.change)
}

// prepare takes a cell through every pass before the interpreter: it changes nothing in the
// session.
func (s *Session) prepare(name, code string, id int) (*cellCtx, error) {
	code = stripPackageClause(code)
	pieces := splitCell(code)
	if err := parsePieces(s.fset, name, code, pieces); err != nil {
		return nil, syntaxError(err)
	}
	pieces = orderPieces(pieces)
	c := &cellCtx{s: s, name: name, src: code, id: id, pieces: pieces}
	if err := c.typecheck(); err != nil {
		if gap := c.check(); gap != nil {
			return nil, gap
		}
		return nil, err
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	if err := c.checkSeal(); err != nil {
		return nil, err
	}
	c.change = c.plan()
	c.rewrite()
	return c, nil
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
		if err != nil && c.retryRewrite(p, err) {
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

// hoistVarDecls takes the top-level `var x T` (no value) out of a statement piece into a
// block of their own, compiled and run before the pieces. The interpreter keeps a variable's
// declaring node for as long as the variable lives, and every node above it: declared in the
// piece, a variable kept the whole cell's syntax alive (about 8 KB a cell); declared alone, a
// few nodes. Such a declaration has no value, so it may come first.
func hoistVarDecls(body *ast.BlockStmt) *ast.BlockStmt {
	var decls, rest []ast.Stmt
	for _, st := range body.List {
		if ds, ok := st.(*ast.DeclStmt); ok {
			if g := ds.Decl.(*ast.GenDecl); g.Tok == token.VAR && noValues(g) {
				decls = append(decls, st)
				continue
			}
		}
		rest = append(rest, st)
	}
	if len(decls) == 0 {
		return nil
	}
	body.List = rest
	return &ast.BlockStmt{Lbrace: decls[0].Pos(), List: decls, Rbrace: decls[len(decls)-1].End()}
}

func noValues(g *ast.GenDecl) bool {
	for _, sp := range g.Specs {
		if len(sp.(*ast.ValueSpec).Values) > 0 {
			return false
		}
	}
	return true
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

// compile turns a piece's AST into a program, converting yaegi's compile panics into errors.
func (s *Session) compile(n ast.Node) (prog *interp.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &compilePanic{value: r}
		}
	}()
	logMu.Lock()
	muteLog = true
	logMu.Unlock()
	defer func() {
		logMu.Lock()
		muteLog = false
		logMu.Unlock()
	}()
	return s.in.CompileAST(n)
}

// compilePanic is a panic raised by yaegi while compiling.
type compilePanic struct{ value any }

func (p *compilePanic) Error() string { return fmt.Sprint(p.value) }

// isVoidResult reports whether compiling the trailing-expression capture failed because the
// expression has no value (a call of a function without results).
func isVoidResult(err error) bool {
	return strings.Contains(err.Error(), " as type ()")
}

// exitError is os.Exit called from a cell: the cause its context is cancelled with (runtime.go's
// exit), or a panic value when the call came on Execute's own goroutine.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("os.Exit(%d)", e.code) }

// sourcePackages replace the standard library's slices, maps and cmp packages, whose generic
// functions yaegi v0.16.1 cannot take from compiled code, with source it can run (slices.go.txt,
// maps.go.txt, cmp.go.txt).
var (
	//go:embed slices.go.txt
	slicesSource string
	//go:embed maps.go.txt
	mapsSource string
	//go:embed cmp.go.txt
	cmpSource string

	sourcePackages = map[string]string{"slices": slicesSource, "maps": mapsSource, "cmp": cmpSource}
)

// packageSymbols are the exported symbols of the package at path: a compiled package's symbol
// table, or for slices, maps and cmp the kernel's replacement functions (sourceSymbols).
func (s *Session) packageSymbols(path string) map[string]reflect.Value {
	if m, ok := sourceSymbols[path]; ok {
		return m
	}
	return s.packages[path]
}

// sourceSymbols are the functions of each of sourcePackages, as nil values, found once.
var sourceSymbols = func() map[string]map[string]reflect.Value {
	all := map[string]map[string]reflect.Value{}
	for path, src := range sourcePackages {
		m := map[string]reflect.Value{}
		for _, line := range strings.Split(src, "\n") {
			if name, ok := strings.CutPrefix(line, "func "); ok {
				if i := strings.IndexAny(name, "[("); i > 0 && token.IsExported(name[:i]) {
					m[name[:i]] = reflect.Value{}
				}
			}
		}
		all[path] = m
	}
	return all
}()

// evalPrelude evaluates the prelude in the cells' file scope, so its import is visible to cells.
func (s *Session) evalPrelude() error {
	f, err := parser.ParseFile(s.fset, scopeFile, "package main\n//line "+scopeFile+":1:1\n"+prelude, 0)
	if err != nil {
		return err
	}
	prog, err := s.compile(f)
	if err != nil {
		return err
	}
	_, err = s.in.Execute(prog)
	return err
}

// discard is the sink of the plugins' preludes.
type discard struct{}

func (discard) Stream(name, text string)             {}
func (discard) Display(display.Bundle, string, bool) {}
func (discard) ClearOutput(wait bool)                {}
