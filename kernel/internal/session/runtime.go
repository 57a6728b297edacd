package session

import (
	"fmt"

	"github.com/gptnotes/gptnotes/kernel/display"
	"os"
	"reflect"
	"regexp"
	"runtime"
	"sync"

	"github.com/traefik/yaegi/interp"
)

// The cell runtime: a small compiled package the kernel's rewrites call into, imported by the
// prelude under the name __gptnotes. Cells never name it themselves.
const runtimePath = "gptnotes.internal/cellrt"

// prelude is evaluated once per session: the runtime import and the builtins yaegi v0.16.1 lacks
// (min, max, clear; Go 1.21).
const prelude = `
import __gptnotes "gptnotes.internal/cellrt"

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
`

// runtimeSymbols is the cell runtime's symbol table, bound to s.
func (s *Session) runtimeSymbols() interp.Exports {
	return interp.Exports{
		runtimePath + "/cellrt": {
			"Result":     reflect.ValueOf(s.result),
			"ResultWith": reflect.ValueOf(s.resultWith),
			"Live":       reflect.ValueOf(s.live),
			"Rendered":   reflect.ValueOf(rendered),
			"Defer":      reflect.ValueOf(s.deferCall),
			"GoPanic":    reflect.ValueOf(s.goPanic),
			"Clear":      reflect.ValueOf(clearValue),
		},
		"os/os": {
			"Exit": reflect.ValueOf(func(code int) { panic(exitError{code}) }),
		},
		"errors/errors": {
			"As": reflect.ValueOf(errorsAs),
		},
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
// panic in one becomes the cell's error if it has none yet.
func (s *Session) runDefers(r *cellRun, err error) error {
	for i := len(r.defers) - 1; i >= 0; i-- {
		func() {
			defer func() {
				if p := recover(); p != nil && err == nil {
					v := panicText(p)
					err = &CellError{Name: "Panic", Value: v, Traceback: append([]string{"panic: " + v}, frames(s.trace.take())...)}
				}
			}()
			r.defers[i]()
		}()
	}
	return err
}

// live ends the calling goroutine when cell is no longer the one running (it was interrupted,
// or failed, and yaegi would otherwise let it resume; see rewrite.go).
func (s *Session) live(cell int) {
	s.runMu.Lock()
	r := s.running
	s.runMu.Unlock()
	if r == nil || r.id != cell || r.stopped.Load() {
		runtime.Goexit()
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
		r.sink.Stream("stderr", joinLines(err.Traceback))
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
// to become the error's traceback. Everything else goes to fd 2, the running cell's stderr.
type stderrFilter struct{ s *Session }

var panicFrame = regexp.MustCompile(`^(\S+:\d+:\d+|-): panic: (.*)\n$`)

func (f *stderrFilter) Write(b []byte) (int, error) {
	if m := panicFrame.FindSubmatch(b); m != nil {
		f.s.trace.add(fmt.Sprintf("%s (%s)", m[2], m[1]))
		return len(b), nil
	}
	return os.Stderr.Write(b)
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

// The standard logger writes to fd 2 (the running cell), except while yaegi compiles: its
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
	return os.Stderr.Write(b)
}
