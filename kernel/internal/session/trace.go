package session

import (
	"fmt"
	"regexp"
	"sync"
)

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
