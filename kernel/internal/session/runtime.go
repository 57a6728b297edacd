package session

import (
	"encoding"
	"flag"
	"fmt"
	"log"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/gptnotes/gptnotes/kernel/display"
	"github.com/gptnotes/gptnotes/kernel/symbols/stdlib"
)

// The cell runtime: a small compiled package the kernel's rewrites call into, imported by the
// prelude under the name __gptnotes. Cells never name it themselves.
const runtimePath = "gptnotes.internal/cellrt"

// prelude is evaluated once per session: the runtime import and the builtins yaegi v0.16.1 lacks
// (min, max, clear; Go 1.21).
const prelude = `
import (
	__gptnotes "gptnotes.internal/cellrt"
	__gptnotes_errors "errors"
)

// errors.AsType (Go 1.26), through the kernel's errors.As.
func __gptnotes_errors_AsType[E error](err error) (E, bool) {
	var e E
	ok := __gptnotes_errors.As(err, &e)
	return e, ok
}

type __gptnotes_ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

func min[T __gptnotes_ordered](x T, ys ...T) T {
	m := x
	for _, y := range ys {
		if y < m || y != y {
			m = y
		}
	}
	return m
}

func max[T __gptnotes_ordered](x T, ys ...T) T {
	m := x
	for _, y := range ys {
		if y > m || y != y {
			m = y
		}
	}
	return m
}

func clear(x any) { __gptnotes.Clear(x) }

// Since Go 1.21, panic(v) with v nil panics with a *runtime.PanicNilError, so that recover()
// is never nil in a panic; the kernel passes panic's interface arguments through here.
func __gptnotes_panicValue(v any) any {
	if v == nil {
		return __gptnotes.PanicNil()
	}
	return v
}
`

// runtimeSymbols is the cell runtime's symbol table, bound to s, with the standard library
// symbols the kernel replaces (os.Exit, os.Args, flag, log.Fatal, errors.As). It is loaded after
// the standard library, so its entries win. Since New calls it once per session before any cell,
// it also gives cells the command line of a program just started (newProgram).
func (s *Session) runtimeSymbols() interp.Exports {
	newProgram()
	fatal := reflect.ValueOf(func(v ...any) { s.logFatal(fmt.Sprint(v...)) })
	fatalf := reflect.ValueOf(func(format string, v ...any) { s.logFatal(fmt.Sprintf(format, v...)) })
	fatalln := reflect.ValueOf(func(v ...any) { s.logFatal(fmt.Sprintln(v...)) })
	printers := s.printerSymbols()
	return interp.Exports{
		runtimePath + "/cellrt": {
			"Result":           reflect.ValueOf(s.result),
			"ResultWith":       reflect.ValueOf(s.resultWith),
			"Live":             reflect.ValueOf(s.live),
			"Rendered":         reflect.ValueOf(rendered),
			"Defer":            reflect.ValueOf(s.deferCall),
			"GoPanic":          reflect.ValueOf(s.goPanic),
			"Clear":            reflect.ValueOf(clearValue),
			"PanicNil":         reflect.ValueOf(func() any { return new(runtime.PanicNilError) }),
			"FreshCommandLine": reflect.ValueOf(freshCommandLine),
			"NilInInterface":   reflect.ValueOf(s.nilInInterface),
			"Recovered":        reflect.ValueOf(s.recovered),
			"JSONUnmarshal":    reflect.ValueOf(jsonUnmarshal),
			"JSONDecode":       reflect.ValueOf(jsonDecode),
			"RunCallback":      reflect.ValueOf(s.runCallback),
		},
		"os/os": {
			"Exit": reflect.ValueOf(s.exit),
			"Args": reflect.ValueOf(&cellArgs).Elem(),
		},
		"flag/flag": cellFlagSymbols(s),
		"log/log":   cellLogSymbols(fatal, fatalf, fatalln),
		"errors/errors": {
			"As": reflect.ValueOf(errorsAs),
		},
		fmtKey: printers,
		// Interpreted values passed to log.Fatal keep their String and Error methods, as
		// they do for log.Print (package stdlib's MapTypes); so do those passed to printers.
		".": {"MapTypes": reflect.ValueOf(printerMapTypes(printers, map[reflect.Value][]reflect.Type{
			fatal: logMapTypes, fatalf: logMapTypes, fatalln: logMapTypes,
		}))},
	}
}

// cellLogSymbols is package log for cells: its standard logger is the process's own, as in a
// program, so that log.SetOutput and log.SetFlags in a cell reach what compiled code logs
// through it (log/slog's default handler does); yaegi alone gives cells a logger of their own,
// and slog.Info then ignored a cell's log.SetOutput, with no error. Its output starts as the
// running cell's stderr (capture.go), and Fatal ends the cell (logFatal).
func cellLogSymbols(fatal, fatalf, fatalln reflect.Value) map[string]reflect.Value {
	log.SetOutput(logOutput{})
	log.SetFlags(log.LstdFlags)
	log.SetPrefix("")
	return map[string]reflect.Value{
		"Fatal": fatal, "Fatalf": fatalf, "Fatalln": fatalln,
		"Default": reflect.ValueOf(log.Default), "Flags": reflect.ValueOf(log.Flags),
		"Output": reflect.ValueOf(log.Output), "Prefix": reflect.ValueOf(log.Prefix),
		"Print": reflect.ValueOf(log.Print), "Printf": reflect.ValueOf(log.Printf),
		"Println": reflect.ValueOf(log.Println), "Panic": reflect.ValueOf(log.Panic),
		"Panicf": reflect.ValueOf(log.Panicf), "Panicln": reflect.ValueOf(log.Panicln),
		"SetFlags": reflect.ValueOf(log.SetFlags), "SetOutput": reflect.ValueOf(log.SetOutput),
		"SetPrefix": reflect.ValueOf(log.SetPrefix), "Writer": reflect.ValueOf(log.Writer),
	}
}

// logMapTypes are the interface wrappers yaegi gives the arguments of log.Fatal.
var logMapTypes = stdlib.MapTypes[reflect.ValueOf(log.Fatal)]

// --- the program's view of itself --------------------------------------------------------------

// programName is os.Args[0] in cells: a session is a program run as "gptnotes" with no
// arguments.
const programName = "gptnotes"

// The command line cells see, apart from the process's own: the kernel's (which it parsed before
// the first session started), or a test binary's (whose flag.CommandLine the testing package
// still needs once the tests have run). In cells, os.Args, flag.CommandLine and flag.Usage are
// these variables, and the flag package's functions act on cellFlags; compiled packages see the
// process's. (yaegi alone gives cells a copy of flag.CommandLine that the compiled flag
// functions never use, and flag.Parse parsed the kernel's own arguments.)
var (
	cellArgs    []string      // os.Args
	cellFlags   *flag.FlagSet // flag.CommandLine
	cellUsage   func()        // flag.Usage
	commandLine *flag.FlagSet // the flag.CommandLine freshCommandLine made last
)

// newProgram makes cells see a program just started with no arguments: os.Args is just its
// name, flag.CommandLine has no flags and has parsed nothing.
func newProgram() {
	cellArgs = []string{programName}
	freshCommandLine()
}

// freshCommandLine gives cells' flag.CommandLine the state of a program that has just started:
// no flags defined, nothing parsed, flag.Usage the default. A pasted program whose func main
// defines flags can run again without "flag redefined" panics: call it before each run of a
// cell's main (cells call it as __gptnotes.FreshCommandLine()). os.Args is left as it is: its
// first element names the new set, and a cell may have set it to pass arguments to main.
//
// Go's flag.CommandLine exits on a parse error (ExitOnError) through the process's real
// os.Exit, which would end the kernel. This one continues (ContinueOnError), and the cells'
// flag.Parse (flagParse) turns the error into the kernel's Exit, as ExitOnError would.
func freshCommandLine() {
	name := programName
	if len(cellArgs) > 0 {
		name = cellArgs[0]
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(cellStderr)
	fs.Usage = func() { cellUsage() } // as Go's CommandLine: whatever flag.Usage is then
	cellFlags, commandLine = fs, fs
	cellUsage = defaultUsage
}

// defaultUsage is Go's flag.Usage, for the cells' command line.
func defaultUsage() {
	fmt.Fprintf(cellFlags.Output(), "Usage of %s:\n", cellFlags.Name())
	cellFlags.PrintDefaults()
}

// cellFlagSymbols is the flag package for cells: every function that Go's acts on
// flag.CommandLine acts on cellFlags.
func cellFlagSymbols(s *Session) map[string]reflect.Value {
	fs := func() *flag.FlagSet { return cellFlags }
	return map[string]reflect.Value{
		"CommandLine": reflect.ValueOf(&cellFlags).Elem(),
		"Usage":       reflect.ValueOf(&cellUsage).Elem(),
		"Parse":       reflect.ValueOf(s.flagParse),
		"NewFlagSet":  reflect.ValueOf(newFlagSet),

		"Arg":           reflect.ValueOf(func(i int) string { return fs().Arg(i) }),
		"Args":          reflect.ValueOf(func() []string { return fs().Args() }),
		"NArg":          reflect.ValueOf(func() int { return fs().NArg() }),
		"NFlag":         reflect.ValueOf(func() int { return fs().NFlag() }),
		"Parsed":        reflect.ValueOf(func() bool { return fs().Parsed() }),
		"PrintDefaults": reflect.ValueOf(func() { fs().PrintDefaults() }),
		"Lookup":        reflect.ValueOf(func(name string) *flag.Flag { return fs().Lookup(name) }),
		"Set":           reflect.ValueOf(func(name, value string) error { return fs().Set(name, value) }),
		"Visit":         reflect.ValueOf(func(fn func(*flag.Flag)) { fs().Visit(fn) }),
		"VisitAll":      reflect.ValueOf(func(fn func(*flag.Flag)) { fs().VisitAll(fn) }),
		"Var":           reflect.ValueOf(func(v flag.Value, name, usage string) { fs().Var(v, name, usage) }),
		"Func":          reflect.ValueOf(func(name, usage string, fn func(string) error) { fs().Func(name, usage, fn) }),
		"BoolFunc":      reflect.ValueOf(func(name, usage string, fn func(string) error) { fs().BoolFunc(name, usage, fn) }),
		"TextVar": reflect.ValueOf(func(p encoding.TextUnmarshaler, name string, value encoding.TextMarshaler, usage string) {
			fs().TextVar(p, name, value, usage)
		}),

		"Bool":     reflect.ValueOf(func(name string, value bool, usage string) *bool { return fs().Bool(name, value, usage) }),
		"BoolVar":  reflect.ValueOf(func(p *bool, name string, value bool, usage string) { fs().BoolVar(p, name, value, usage) }),
		"Int":      reflect.ValueOf(func(name string, value int, usage string) *int { return fs().Int(name, value, usage) }),
		"IntVar":   reflect.ValueOf(func(p *int, name string, value int, usage string) { fs().IntVar(p, name, value, usage) }),
		"Int64":    reflect.ValueOf(func(name string, value int64, usage string) *int64 { return fs().Int64(name, value, usage) }),
		"Int64Var": reflect.ValueOf(func(p *int64, name string, value int64, usage string) { fs().Int64Var(p, name, value, usage) }),
		"Uint":     reflect.ValueOf(func(name string, value uint, usage string) *uint { return fs().Uint(name, value, usage) }),
		"UintVar":  reflect.ValueOf(func(p *uint, name string, value uint, usage string) { fs().UintVar(p, name, value, usage) }),
		"Uint64":   reflect.ValueOf(func(name string, value uint64, usage string) *uint64 { return fs().Uint64(name, value, usage) }),
		"Uint64Var": reflect.ValueOf(func(p *uint64, name string, value uint64, usage string) {
			fs().Uint64Var(p, name, value, usage)
		}),
		"Float64": reflect.ValueOf(func(name string, value float64, usage string) *float64 { return fs().Float64(name, value, usage) }),
		"Float64Var": reflect.ValueOf(func(p *float64, name string, value float64, usage string) {
			fs().Float64Var(p, name, value, usage)
		}),
		"String":    reflect.ValueOf(func(name, value, usage string) *string { return fs().String(name, value, usage) }),
		"StringVar": reflect.ValueOf(func(p *string, name, value, usage string) { fs().StringVar(p, name, value, usage) }),
		"Duration": reflect.ValueOf(func(name string, value time.Duration, usage string) *time.Duration {
			return fs().Duration(name, value, usage)
		}),
		"DurationVar": reflect.ValueOf(func(p *time.Duration, name string, value time.Duration, usage string) {
			fs().DurationVar(p, name, value, usage)
		}),
	}
}

// flagParse is flag.Parse for cells: flag.CommandLine parses os.Args[1:]; on the command line
// freshCommandLine made, an error ends the cell as Go's ExitOnError ends the program: os.Exit(0)
// for -help, os.Exit(2) for any other.
func (s *Session) flagParse() {
	fs := cellFlags
	err := fs.Parse(cellArgs[1:])
	if err != nil && fs == commandLine {
		if err == flag.ErrHelp {
			s.exit(0)
		}
		s.exit(2)
	}
}

// newFlagSet is flag.NewFlagSet for cells. ExitOnError would call the process's real os.Exit and
// end the kernel: such a set panics instead (PanicOnError), which fails the cell.
func newFlagSet(name string, handling flag.ErrorHandling) *flag.FlagSet {
	if handling == flag.ExitOnError {
		handling = flag.PanicOnError
	}
	return flag.NewFlagSet(name, handling)
}

// logFatal is log.Fatal for cells: the message through the interpreter's logger (the one
// log.Print uses), then os.Exit(1).
func (s *Session) logFatal(msg string) {
	if out, ok := s.in.Symbols("log")["log"]["Output"].Interface().(func(int, string) error); ok {
		out(3, msg)
	} else {
		log.Output(3, msg)
	}
	s.exit(1)
}

// --- os.Exit -----------------------------------------------------------------------------------

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

// result receives the values of a cell's trailing expression.
func (s *Session) result(vals ...any) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if r := s.running; r != nil {
		r.results, r.gotRes = vals, true
	}
}

// resultWith receives a trailing value of a cell-declared type with the outputs of its renderer
// methods, as MIME type, data pairs.
func (s *Session) resultWith(v any, mimeData ...any) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	r := s.running
	if r == nil {
		return
	}
	r.results, r.gotRes = []any{v}, true
	r.mime = map[string]any{}
	for i := 0; i+1 < len(mimeData); i += 2 {
		if k, ok := mimeData[i].(string); ok {
			r.mime[k] = mimeData[i+1]
		}
	}
}

// rendered is the bundle of a value of a cell-declared type, from its renderer methods' outputs
// (MIME type, data pairs), for display.Display.
func rendered(v any, mimeData ...any) any {
	b := display.Render(v)
	for i := 0; i+1 < len(mimeData); i += 2 {
		if k, ok := mimeData[i].(string); ok {
			b.Data[k] = mimeData[i+1]
		}
	}
	return b
}

// deferCall registers a top-level deferred call of the running cell (see topDefer).
func (s *Session) deferCall(f func()) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if r := s.running; r != nil {
		r.defers = append(r.defers, f)
	}
}

// runDefers runs a cell's top-level deferred calls, last first, as Go runs a function's; a
// panic in one becomes the cell's error if it has none yet. Once os.Exit was called (by the cell,
// by one of its goroutines, or by a deferred call) no further deferred call runs and the cell's
// error is Exit. Each call runs in a goroutine of its own, so that os.Exit in it parks that
// goroutine, not Execute's.
func (s *Session) runDefers(r *cellRun, err error) error {
	st := exitOf(r)
	defer exits.Delete(r)
	for i := len(r.defers) - 1; i >= 0; i-- {
		if _, ok := st.exited(); ok {
			break
		}
		res := make(chan error, 1)
		go func(f func()) {
			var perr error
			defer func() {
				if p := recover(); p != nil {
					v := panicText(p)
					perr = &CellError{Name: "Panic", Value: v, Traceback: append([]string{"panic: " + v}, frames(s.trace.take())...)}
				}
				res <- perr
			}()
			f()
		}(r.defers[i])
		select {
		case perr := <-res:
			if perr != nil && err == nil {
				err = perr
			}
		case <-st.done:
		}
	}
	if code, ok := st.exited(); ok {
		s.trace.take()
		return exitCellError(code)
	}
	return err
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

// goPanic is called by the recover the kernel wraps around every go statement: the cell that
// started the goroutine fails with the panic if it still runs; otherwise the panic is reported on
// the stderr of the cell now running, or in the kernel log.
func (s *Session) goPanic(cell int, v any) {
	trace := s.trace.take()
	s.runMu.Lock()
	r := s.running
	s.runMu.Unlock()
	by := "this cell"
	if r == nil || r.id != cell {
		by = fmt.Sprintf("an earlier cell (execution #%d)", cell)
	}
	err := &CellError{Name: "GoroutinePanic", Value: fmt.Sprintf("panic in a goroutine started by %s: %s", by, panicText(v))}
	err.Traceback = append([]string{err.Name + ": " + err.Value}, frames(trace)...)
	switch {
	case r != nil && r.id == cell:
		r.cancel(err)
	case r != nil:
		cellStderr.Write([]byte(joinLines(err.Traceback))) // in order with the cell's output
	default:
		fmt.Fprintln(LogWriter(), "session:", joinLines(err.Traceback))
	}
}

// errorsAs is errors.As for cells: it also finds an error of a type declared in a cell. Such an
// error reaches compiled code inside yaegi's interface wrapper (a struct whose first field,
// IValue, holds the interpreted value), which the standard errors.As cannot see through.
func errorsAs(err error, target any) bool {
	if target == nil {
		panic("errors: target cannot be nil")
	}
	tv := reflect.ValueOf(target)
	if tv.Kind() != reflect.Pointer || tv.IsNil() {
		panic("errors: target must be a non-nil pointer")
	}
	want := tv.Type().Elem()
	return asChain(err, target, tv.Elem(), want)
}

func asChain(err error, target any, dst reflect.Value, want reflect.Type) bool {
	for err != nil {
		v := reflect.ValueOf(err)
		for _, cand := range []reflect.Value{v, unwrapInterp(v)} {
			if cand.IsValid() && cand.Type().AssignableTo(want) {
				dst.Set(cand)
				return true
			}
		}
		if x, ok := err.(interface{ As(any) bool }); ok && x.As(target) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if asChain(e, target, dst, want) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// unwrapInterp returns the interpreted value inside a yaegi interface wrapper, if v is one.
func unwrapInterp(v reflect.Value) reflect.Value {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct && v.NumField() > 0 && v.Type().Field(0).Name == "IValue" {
		return v.Field(0).Elem()
	}
	return reflect.Value{}
}

// clearValue is the clear builtin: deletes a map's entries, zeroes a slice's elements.
func clearValue(x any) {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Map, reflect.Slice:
		v.Clear()
	default:
		panic(fmt.Sprintf("invalid argument: clear(%T): argument must be a map or a slice", x))
	}
}

// stderrFilter is the interpreter's stderr. yaegi writes one line per interpreted frame while a
// panic unwinds ("cell3:2:5: panic: main.f(...)"); those lines go into the session's trace buffer,
// to become the error's traceback. Everything else goes to the running cell's stderr, in order with
// its stdout (capture.go).
type stderrFilter struct{ s *Session }

var panicFrame = regexp.MustCompile(`^(\S+:\d+:\d+|-): panic: (.*)\n$`)

func (f *stderrFilter) Write(b []byte) (int, error) {
	if m := panicFrame.FindSubmatch(b); m != nil {
		f.s.trace.add(fmt.Sprintf("%s (%s)", m[2], m[1]))
		return len(b), nil
	}
	return cellStderr.Write(b)
}

// traceBuffer collects interpreted panic frames, innermost first.
type traceBuffer struct {
	mu     sync.Mutex
	frames []string
}

func (t *traceBuffer) add(frame string) {
	t.mu.Lock()
	if len(t.frames) < 200 {
		t.frames = append(t.frames, frame)
	}
	t.mu.Unlock()
}

func (t *traceBuffer) take() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.frames
	t.frames = nil
	return f
}

// The standard logger of compiled code writes to the running cell's stderr, in order with its
// stdout (capture.go), except while yaegi compiles: its
// log.Panic("nil type") messages go to the kernel log instead of the cell.
var (
	logMu   sync.Mutex
	muteLog bool
)

type logOutput struct{}

func (logOutput) Write(b []byte) (int, error) {
	logMu.Lock()
	m := muteLog
	logMu.Unlock()
	if m {
		return LogWriter().Write(b)
	}
	return cellStderr.Write(b)
}
