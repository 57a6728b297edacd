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

	"github.com/gptnotes/gptnotes/kernel"
	"github.com/gptnotes/gptnotes/kernel/display"
	"github.com/gptnotes/gptnotes/kernel/symbols"
	"github.com/gptnotes/gptnotes/kernel/symbols/stdlib"
)

// A Sink receives the running cell's outputs as they happen: the kernel's own, which a Session
// is (an Engine, and a CallbackRunner) for package kernel.
type Sink = kernel.Sink

var (
	_ kernel.Engine         = (*Session)(nil)
	_ kernel.CallbackRunner = (*Session)(nil)
)

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
	waiting  []waitingCell            // cells of declarations waiting for later ones (waiting.go)
	tags     tagRegistry              // the tag types of the cells' named basic types (tagged.go)
	imp      *importer                // the compiled packages' types, for the check
	pkgNames map[string]string        // compiled packages: import path → package name

	packages map[string]map[string]reflect.Value // compiled packages: import path → symbols
	mods     moduleState                         // the modules cells imported (modules.go)

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

// CellError is a cell's failure as Jupyter shows it (ename, evalue, traceback): the kernel's own,
// which the protocol side sends as it is.
type CellError = kernel.CellError

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
	s.mods.fs = newModuleFS()
	s.mods.docs = map[string]map[string]string{}
	s.in = interp.New(interp.Options{
		// Module packages' source, as src/<import path> (modules.go).
		SourcecodeFilesystem: s.mods.fs,
		Stdout:               cellStdout, // ordered with the cell's stderr (capture.go)
		Stderr:               &stderrFilter{s: s},
		Args:                 []string{"gptnotes"},
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
	s.imp.modules, s.imp.checked = s.modulePackage, s.moduleChecked
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
		s.importOnly(path)
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

// prepare takes a cell through every pass before the interpreter: it changes nothing in the
// session. A cell that fails the type check comes back with its error (for waiting.go).
func (s *Session) prepare(name, code string, id int) (*cellCtx, error) {
	var names sourceNames
	code, names.whole = stripPackageClause(code)
	stripped := code
	code, names.directives = takeLineDirectives(code)
	if err := s.requireDirectives(code); err != nil {
		return nil, err
	}
	pieces := splitCell(code)
	if err := parsePieces(s.fset, name, code, pieces); err != nil {
		return nil, syntaxError(err)
	}
	pieces = orderPieces(pieces)
	s.reloadStaleImports(pieces)
	c := &cellCtx{s: s, name: name, src: code, id: id, pieces: pieces, sources: names}
	if err := c.typecheck(); err != nil {
		if w, ok := c.waitsFor(); ok {
			w.code = stripped
			return nil, &waitError{cell: w}
		}
		if gap := c.refuse(); gap != nil {
			return nil, gap
		}
		return c, err
	}
	if err := c.refuse(); err != nil {
		return nil, err
	}
	if err := c.checkSeal(); err != nil {
		return nil, err
	}
	c.change = c.plan()
	c.rewrite()
	return c, nil
}

// sourcePackages replace the standard library's slices, maps and cmp packages, whose generic
// functions yaegi v0.16.1 cannot take from compiled code, with source it can run: the packages
// of prelude/, which Go's own tools build, format and vet as any other, embedded as text.
var (
	//go:embed prelude/slices/slices.go
	slicesSource string
	//go:embed prelude/maps/maps.go
	mapsSource string
	//go:embed prelude/cmp/cmp.go
	cmpSource string

	sourcePackages = map[string]string{"slices": slicesSource, "maps": mapsSource, "cmp": cmpSource}
)

// packageSymbols are the exported symbols of the package at path: a compiled package's symbol
// table, or for slices, maps and cmp the kernel's replacement functions (sourceSymbols).
func (s *Session) packageSymbols(path string) map[string]reflect.Value {
	if m, ok := sourceSymbols[path]; ok {
		return m
	}
	if m, ok := s.packages[path]; ok {
		return m
	}
	return s.moduleSymbols(path)
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
