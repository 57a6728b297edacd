package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"runtime/debug"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// Output capture. Interpreted code and compiled code (a plugin's fmt.Println, a write to os.Stdout,
// the runtime's own messages) all end up on file descriptors 1 and 2. At the first New, both are
// replaced (dup2) by the write ends of two pipes; one reader goroutine per pipe forwards what
// arrives to the sink of the running cell, as it arrives. The process's original stdout and stderr
// are kept (dup) for the kernel's own log and for output that arrives while no cell runs.
//
// A cell ends with a flush: a marker written through each pipe comes back out of the reader once
// everything the cell wrote before it has been forwarded, so a cell's output never leaks into the
// next cell.

const (
	chunkSize    = 64 << 10              // largest text forwarded in one stream message
	chunkDelay   = 20 * time.Millisecond // longest a partial chunk waits for more output
	flushTimeout = 2 * time.Second       // a flush marker stuck behind a blocked writer gives up

	fcntlSetPipeSize = 1031    // F_SETPIPE_SZ
	pipeSize         = 1 << 20 // a larger pipe lets writers run ahead of a slow sink
)

// flushMarker is written through a pipe to find the end of a cell's output in it; it never
// reaches a sink. NUL bytes keep it out of ordinary text.
var flushMarker = []byte("\x00gptnotes:flush\x00")

// fd1 is descriptor 1 as a file: the interpreter's stdout. (os.Stdout is a variable a program,
// or a test runner, may reassign.)
var fd1 = os.NewFile(1, "stdout")

var (
	captureOnce sync.Once
	captureErr  error
	origStdout  *os.File // fd 1 as the process started, before capture
	origStderr  *os.File // fd 2 as the process started, before capture
	outPipe     *capturePipe
	errPipe     *capturePipe
)

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
		if origStdout, err = dupFile(1, "stdout"); err != nil {
			captureErr = err
			return
		}
		if origStderr, err = dupFile(2, "stderr"); err != nil {
			captureErr = err
			return
		}
		if outPipe, err = newCapturePipe(1, "stdout", origStdout); err != nil {
			captureErr = err
			return
		}
		if errPipe, err = newCapturePipe(2, "stderr", origStderr); err != nil {
			captureErr = err
			return
		}
		log.SetOutput(logOutput{})
		// A fatal crash writes to fd 2, now a pipe nobody reads once the process is dying:
		// send a copy to the original stderr, where the kernel's log is.
		debug.SetCrashOutput(origStderr, debug.CrashOptions{})
	})
	return captureErr
}

func dupFile(fd int, name string) (*os.File, error) {
	nfd, err := syscall.Dup(fd)
	if err != nil {
		return nil, fmt.Errorf("session: capture: dup %s: %w", name, err)
	}
	syscall.CloseOnExec(nfd)
	return os.NewFile(uintptr(nfd), "original-"+name), nil
}

// setSink directs captured output to sink (nil: to the original descriptors).
func setSink(sink Sink) {
	outPipe.setSink(sink)
	errPipe.setSink(sink)
}

// flushCapture returns once everything written to fds 1 and 2 before the call has been forwarded.
func flushCapture() {
	var wg sync.WaitGroup
	for _, p := range []*capturePipe{outPipe, errPipe} {
		wg.Add(1)
		go func() { defer wg.Done(); p.flush() }()
	}
	wg.Wait()
}

// A capturePipe owns one redirected descriptor.
type capturePipe struct {
	name string   // "stdout" or "stderr", the Jupyter stream name
	w    *os.File // write end, also dup2'd onto fd
	r    *os.File // read end, drained by run
	orig *os.File // where output goes when no cell runs

	mu      sync.Mutex
	sink    Sink
	waiters []chan struct{} // flushes waiting for their marker, in write order
	wmu     sync.Mutex      // serializes marker writes with their waiter registration
}

func newCapturePipe(fd int, name string, orig *os.File) (*capturePipe, error) {
	// The read end is non-blocking (so reads can time out); the write end stays blocking, as
	// os.Stdout was opened blocking and would drop output on EAGAIN.
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil, fmt.Errorf("session: capture %s: pipe: %w", name, err)
	}
	syscall.Syscall(syscall.SYS_FCNTL, uintptr(fds[1]), fcntlSetPipeSize, pipeSize) // best effort
	if err := syscall.SetNonblock(fds[0], true); err != nil {
		return nil, fmt.Errorf("session: capture %s: %w", name, err)
	}
	r := os.NewFile(uintptr(fds[0]), "capture-"+name)
	w := os.NewFile(uintptr(fds[1]), "capture-"+name+"-w")
	if err := syscall.Dup2(fds[1], fd); err != nil {
		return nil, fmt.Errorf("session: capture %s: dup2: %w", name, err)
	}
	p := &capturePipe{name: name, w: w, r: r, orig: orig}
	go p.run()
	return p, nil
}

func (p *capturePipe) setSink(s Sink) {
	p.mu.Lock()
	p.sink = s
	p.mu.Unlock()
}

// flush writes a marker and waits until run has forwarded everything before it.
func (p *capturePipe) flush() {
	done := make(chan struct{})
	p.wmu.Lock()
	p.mu.Lock()
	p.waiters = append(p.waiters, done)
	p.mu.Unlock()
	_, err := p.w.Write(flushMarker)
	p.wmu.Unlock()
	if err != nil {
		return
	}
	select {
	case <-done:
	case <-time.After(flushTimeout):
	}
}

// run forwards the pipe's bytes: chunks of at most chunkSize, cut on rune boundaries, sent when
// full or chunkDelay after their first byte, and at once when a flush marker arrives.
func (p *capturePipe) run() {
	buf := make([]byte, chunkSize)
	var pending []byte
	for {
		if len(pending) > 0 {
			p.r.SetReadDeadline(time.Now().Add(chunkDelay))
		} else {
			p.r.SetReadDeadline(time.Time{})
		}
		n, err := p.r.Read(buf)
		pending = append(pending, buf[:n]...)
		for {
			i := bytes.Index(pending, flushMarker)
			if i < 0 {
				break
			}
			p.emit(pending[:i])
			pending = append(pending[:0], pending[i+len(flushMarker):]...)
			p.mu.Lock()
			if len(p.waiters) > 0 {
				close(p.waiters[0])
				p.waiters = p.waiters[1:]
			}
			p.mu.Unlock()
		}
		timedOut := errors.Is(err, os.ErrDeadlineExceeded)
		if err != nil && !timedOut {
			p.emit(pending)
			return
		}
		// Keep back what could be the start of a marker or of a cut rune, unless the chunk
		// is full or has waited long enough.
		keep := markerPrefix(pending)
		if keep == 0 {
			keep = partialRune(pending)
		}
		if timedOut || len(pending)-keep >= chunkSize {
			p.emit(pending[:len(pending)-keep])
			pending = append(pending[:0], pending[len(pending)-keep:]...)
		}
	}
}

// emit sends text to the running cell's sink, or to the original descriptor when none runs.
func (p *capturePipe) emit(b []byte) {
	for len(b) > 0 {
		n := min(len(b), chunkSize)
		for n < len(b) && n > 0 && !utf8.RuneStart(b[n]) {
			n--
		}
		if n == 0 {
			n = min(len(b), chunkSize)
		}
		p.mu.Lock()
		s := p.sink
		p.mu.Unlock()
		if s != nil {
			s.Stream(p.name, string(b[:n]))
		} else {
			p.orig.Write(b[:n])
		}
		b = b[n:]
	}
}

// markerPrefix is the length of the longest suffix of b that begins flushMarker.
func markerPrefix(b []byte) int {
	for k := min(len(b), len(flushMarker)-1); k > 0; k-- {
		if bytes.HasSuffix(b, flushMarker[:k]) {
			return k
		}
	}
	return 0
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

// stopCapture puts the original descriptors back (for tests, whose runner prints to fd 1 after
// the last test).
func stopCapture() {
	if outPipe == nil {
		return
	}
	flushCapture()
	syscall.Dup2(int(origStdout.Fd()), 1)
	syscall.Dup2(int(origStderr.Fd()), 2)
}
