package session

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
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
			"Result":  reflect.ValueOf(s.result),
			"GoPanic": reflect.ValueOf(s.goPanic),
			"Clear":   reflect.ValueOf(clearValue),
		},
		"os/os": {
			"Exit": reflect.ValueOf(func(code int) { panic(exitError{code}) }),
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
	err := &CellError{Name: "GoroutinePanic", Value: fmt.Sprintf("panic in a goroutine started by %s: %v", by, v)}
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
