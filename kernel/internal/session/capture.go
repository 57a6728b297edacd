package session

import (
	"io"
	"log"
	"os"
	"runtime/debug"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/gptnotes/gptnotes/kernel/display"
)

// Output capture. Everything a cell writes reaches the running cell's sink through one ordered
// stream, the merger (out), which forwards text as the cell writes it: one stream message per
// run of same-stream text, at most chunkSize bytes, sent when the other stream is written to, when
// full, chunkDelay after its first byte, or at the cell's end (flushCapture).
//
// Text enters the merger two ways:
//
//   - Go writers, in call order: the interpreter's stdout and stderr (fmt.Print*, print, println,
//     log.* and panics in cells), fmt.Fprint*(os.Stdout|os.Stderr, …) from a cell (the symbol
//     table's fmt.Fprint* send a write to os.Stdout or os.Stderr there), and the standard logger
//     of compiled code (log.SetOutput). These are cellStdout and cellStderr.
//   - File descriptors 1 and 2: at the first New both are replaced (dup2) by the write ends of two
//     pipes; a reader goroutine per pipe moves what arrives into the merger. Every other write goes
//     this way: os.Stdout.Write or io.WriteString(os.Stderr, …) from a cell, a bufio.Writer or
//     log.Logger over them, compiled packages writing to os.Stdout, C code, the runtime itself.
//
// What holds. Go writers are strictly ordered among themselves, across both streams. A pipe read
// and its move into the merger happen under the merger's lock, and every Go write first drains
// both pipes, so a descriptor write is ordered with every Go write before or after it. What
// cannot be ordered: a write to fd 1 against a write to fd 2 with no Go write between them, when
// both are still unread in their pipes (a pipe keeps no record of when each byte came; the reader
// goroutines usually take a write within microseconds, so only writes in quick succession swap).
// Each stream on its own is always in order.
//
// The merger calls the sink holding its lock: a Sink must not write to the cells' streams
// (cellStdout, cellStderr, the standard logger), only to LogWriter.
//
// The process's original stdout and stderr are kept (dup) for the kernel's own log and for
// output that arrives while no cell runs.

const (
	chunkSize  = 64 << 10              // largest text forwarded in one stream message
	chunkDelay = 20 * time.Millisecond // longest a partial chunk waits for more output

	pipeSize = 1 << 20 // a larger pipe lets writers run ahead of a slow sink (Linux; see fd_*.go)
)

var (
	captureOnce sync.Once
	captureErr  error
	origStdout  *os.File // fd 1 as the process started, before capture
	origStderr  *os.File // fd 2 as the process started, before capture
	stdoutFile  *os.File // os.Stdout as the process started: the *os.File of fd 1
	stderrFile  *os.File // os.Stderr as the process started: the *os.File of fd 2
	outPipe     *capturePipe
	errPipe     *capturePipe

	out = &merger{carry: map[string][]byte{}}
)

// cellStdout and cellStderr are the ordered Go writers of the two streams: the interpreter's
// stdout and (through stderrFilter) its stderr.
var (
	cellStdout io.Writer = streamWriter("stdout")
	cellStderr io.Writer = streamWriter("stderr")
)

// A streamWriter writes to one stream of the merger.
type streamWriter string

func (w streamWriter) Write(b []byte) (int, error) {
	out.write(string(w), b)
	return len(b), nil
}

// orderedWriter is w, or the ordered writer of its stream when w is the process's os.Stdout or
// os.Stderr (see the fmt.Fprint* of stdlibSymbols).
func orderedWriter(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && f != nil {
		switch f {
		case stdoutFile:
			return cellStdout
		case stderrFile:
			return cellStderr
		}
	}
	return w
}

// LogWriter returns the process's original standard error, saved before fd 2 was redirected into
// the cells' capture. The kernel writes its own log there.
func LogWriter() io.Writer {
	if err := startCapture(); err != nil || origStderr == nil {
		return os.Stderr
	}
	return origStderr
}

// startCapture redirects fds 1 and 2 into pipes once per process.
func startCapture() error {
	captureOnce.Do(func() {
		var err error
		stdoutFile, stderrFile = os.Stdout, os.Stderr
		if origStdout, err = dupFile(1, "stdout"); err != nil {
			captureErr = err
			return
		}
		if origStderr, err = dupFile(2, "stderr"); err != nil {
			captureErr = err
			return
		}
		if outPipe, err = newCapturePipe(1, "stdout"); err != nil {
			captureErr = err
			return
		}
		if errPipe, err = newCapturePipe(2, "stderr"); err != nil {
			captureErr = err
			return
		}
		out.mu.Lock()
		out.pipes = []*capturePipe{outPipe, errPipe}
		out.mu.Unlock()
		go outPipe.run(out)
		go errPipe.run(out)
		log.SetOutput(logOutput{})
		// A fatal crash writes to fd 2, now a pipe nobody reads once the process is dying:
		// send a copy to the original stderr, where the kernel's log is.
		debug.SetCrashOutput(origStderr, debug.CrashOptions{})
	})
	return captureErr
}

// setSink directs captured output to sink (nil: to the original descriptors).
func setSink(sink Sink) {
	out.mu.Lock()
	out.sink = sink
	out.mu.Unlock()
}

// flushCapture returns once everything written before the call, by Go writers and to fds 1 and
// 2, has been forwarded.
func flushCapture() {
	out.mu.Lock()
	out.flushLocked()
	out.mu.Unlock()
}

// displayPublisher is sink as display's Publisher, with the stream output written before a
// display call forwarded before it, so that text and displays arrive in the order the cell made
// them. (Execute can install it with display.SetPublisher(displayPublisher(sink)).)
func displayPublisher(sink Sink) display.Publisher { return orderedPublisher{sink} }

type orderedPublisher struct{ sink Sink }

func (p orderedPublisher) Display(b display.Bundle, id string, update bool) {
	out.mu.Lock()
	defer out.mu.Unlock()
	out.flushLocked()
	p.sink.Display(b, id, update)
}

// Input asks through the sink when it can (display.Input, Jupyter's input_request), after the
// output written before it, so the prompt comes after what the cell printed.
func (p orderedPublisher) Input(prompt string, password bool) (string, error) {
	r, ok := p.sink.(display.InputReader)
	if !ok {
		return "", display.ErrNoInput
	}
	out.mu.Lock()
	out.flushLocked()
	out.mu.Unlock()
	return r.Input(prompt, password)
}

func (p orderedPublisher) ClearOutput(wait bool) {
	out.mu.Lock()
	defer out.mu.Unlock()
	out.flushLocked()
	p.sink.ClearOutput(wait)
}

// The merger is the one ordered path of both streams to the sink.
type merger struct {
	mu      sync.Mutex
	sink    Sink
	pipes   []*capturePipe
	name    string            // stream of pending
	pending []byte            // text not yet forwarded, all of stream name
	carry   map[string][]byte // per stream: the start of a UTF-8 sequence cut by a write
	timer   *time.Timer
	armed   bool   // timer will forward pending
	buf     []byte // for draining the pipes
}

// write is a Go writer's write: after whatever the pipes hold, which was written before it.
func (m *merger) write(name string, b []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.drainLocked()
	m.addLocked(name, b)
}

// addLocked appends text of a stream, forwarding the other stream's pending text first and full
// chunks at once. A trailing incomplete rune waits in carry for the rest of its bytes.
func (m *merger) addLocked(name string, b []byte) {
	if c := m.carry[name]; len(c) > 0 {
		b = append(c[:len(c):len(c)], b...)
		m.carry[name] = nil
	}
	if k := partialRune(b); k > 0 {
		m.carry[name] = append([]byte(nil), b[len(b)-k:]...)
		b = b[:len(b)-k]
	}
	if len(b) == 0 {
		return
	}
	if m.name != name && len(m.pending) > 0 {
		m.emitLocked(true)
	}
	m.name = name
	m.pending = append(m.pending, b...)
	if len(m.pending) >= chunkSize {
		m.emitLocked(false)
	}
	if len(m.pending) > 0 && !m.armed {
		m.armed = true
		if m.timer == nil {
			m.timer = time.AfterFunc(chunkDelay, m.timeout)
		} else {
			m.timer.Reset(chunkDelay)
		}
	}
}

// timeout forwards text that waited chunkDelay.
func (m *merger) timeout() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.armed = false
	m.emitLocked(true)
}

// flushLocked forwards everything: the pipes' contents, pending text, carried bytes.
func (m *merger) flushLocked() {
	m.drainLocked()
	m.emitLocked(true)
	for _, name := range []string{"stdout", "stderr"} {
		if c := m.carry[name]; len(c) > 0 {
			m.carry[name] = nil
			m.name, m.pending = name, append(m.pending, c...)
			m.emitLocked(true)
		}
	}
}

// emitLocked forwards pending text in chunks of at most chunkSize cut on rune boundaries: all of
// it, or (all false) only full chunks.
func (m *merger) emitLocked(all bool) {
	b := m.pending
	for len(b) >= chunkSize || (all && len(b) > 0) {
		n := min(len(b), chunkSize)
		for n < len(b) && n > 0 && !utf8.RuneStart(b[n]) {
			n--
		}
		if n == 0 {
			n = min(len(b), chunkSize)
		}
		m.send(m.name, b[:n])
		b = b[n:]
	}
	m.pending = append(m.pending[:0], b...)
}

// send gives text to the running cell's sink, or to the original descriptor when none runs.
func (m *merger) send(name string, b []byte) {
	if m.sink != nil {
		m.sink.Stream(name, string(b))
		return
	}
	orig, fallback := origStdout, os.Stdout
	if name == "stderr" {
		orig, fallback = origStderr, os.Stderr
	}
	if orig == nil { // capture never started
		orig = fallback
	}
	orig.Write(b)
}

// drainLocked moves what the pipes hold into the merger, stdout first. (When both hold text, the
// order between them is unknown: see the package comment above.)
func (m *merger) drainLocked() {
	if len(m.pipes) == 0 {
		return
	}
	if m.buf == nil {
		m.buf = make([]byte, chunkSize)
	}
	for _, p := range m.pipes {
		p.rc.Control(func(fd uintptr) {
			for {
				n, err := readFD(fd, m.buf)
				if n > 0 {
					m.addLocked(p.name, m.buf[:n])
				}
				if err != nil || n < len(m.buf) {
					return // empty (EAGAIN), or it was emptied by this read
				}
			}
		})
	}
}

// A capturePipe owns one redirected descriptor.
type capturePipe struct {
	name string   // "stdout" or "stderr", the Jupyter stream name
	w    *os.File // write end, also dup2'd onto fd
	r    *os.File // read end (non-blocking), drained by run and by the merger's Go writes
	rc   syscall.RawConn
}

// partialRune is the length of an incomplete UTF-8 sequence at the end of b.
func partialRune(b []byte) int {
	for k := 1; k <= 3 && k <= len(b); k++ {
		c := b[len(b)-k]
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}
