package session

import (
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// The handle side of output capture on Windows (capture_unix.go: Unix). Windows has no
// descriptors 1 and 2 to replace in place: a process's standard output is whatever handle
// GetStdHandle returns, and os.Stdout holds the handle it had at start. So each stream gets an
// anonymous pipe whose write end becomes both the standard handle (SetStdHandle: C code and
// anything that asks Windows for it) and os.Stdout or os.Stderr (Go code, and a cell's
// os.Stdout.Write). The handles the process started with are kept for the kernel's log. The new
// os.Stdout and os.Stderr are also stdoutFile and stderrFile, the files whose fmt.Fprint* from a
// cell go to the ordered Go writers (orderedWriter), as the process's own files do on Unix.
//
// Anonymous pipes cannot be waited on by the runtime's poller, and a blocking read outside the
// merger's lock could take bytes that a Go write's drain then passes. So every read happens
// under the lock and never blocks: PeekNamedPipe says how much the pipe holds, ReadFile takes
// exactly that. The reader goroutine polls, every pollMin while output flows, backing off to
// pollMax when the pipe stays empty (pollMax is below chunkDelay, so a write still reaches the
// sink within about chunkDelay).

// startStdout and startStderr are os.Stdout and os.Stderr as the process started, put back
// by stopCapture.
var startStdout, startStderr *os.File

const (
	pollMin = time.Millisecond
	pollMax = chunkDelay / 2
)

var (
	kernel32          = syscall.NewLazyDLL("kernel32.dll")
	procPeekNamedPipe = kernel32.NewProc("PeekNamedPipe")
	procSetStdHandle  = kernel32.NewProc("SetStdHandle")
)

// setStdHandle makes h the process's standard handle for fd.
func setStdHandle(fd int, h syscall.Handle) error {
	if ok, _, err := procSetStdHandle.Call(uintptr(stdHandle(fd)), uintptr(h)); ok == 0 {
		return err
	}
	return nil
}

// stdHandle is the standard handle GetStdHandle and SetStdHandle name for descriptor fd.
func stdHandle(fd int) int {
	if fd == 2 {
		return syscall.STD_ERROR_HANDLE
	}
	return syscall.STD_OUTPUT_HANDLE
}

// dupFile is a copy of the process's standard handle for fd, not inherited by children. A
// process started without one (no console, nothing redirected) writes its log to NUL.
func dupFile(fd int, name string) (*os.File, error) {
	h, err := syscall.GetStdHandle(stdHandle(fd))
	if err != nil || h == 0 || h == syscall.InvalidHandle {
		return os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	}
	self, _ := syscall.GetCurrentProcess()
	var dup syscall.Handle
	if err := syscall.DuplicateHandle(self, h, self, &dup, 0, false, syscall.DUPLICATE_SAME_ACCESS); err != nil {
		return nil, fmt.Errorf("session: capture: duplicate %s: %w", name, err)
	}
	return os.NewFile(uintptr(dup), "original-"+name), nil
}

// readFD reads what the pipe holds without waiting: syscall.EAGAIN when it is empty, io.EOF
// once every write end is closed.
func readFD(fd uintptr, b []byte) (int, error) {
	var avail uint32
	ok, _, err := procPeekNamedPipe.Call(fd, 0, 0, 0, uintptr(unsafe.Pointer(&avail)), 0)
	if ok == 0 {
		if err == syscall.ERROR_BROKEN_PIPE {
			return 0, io.EOF
		}
		return 0, err
	}
	if avail == 0 {
		return 0, syscall.EAGAIN
	}
	var n uint32
	if err := syscall.ReadFile(syscall.Handle(fd), b[:min(int(avail), len(b))], &n, nil); err != nil {
		return int(n), err
	}
	return int(n), nil
}

func newCapturePipe(fd int, name string) (*capturePipe, error) {
	var r, w syscall.Handle
	if err := syscall.CreatePipe(&r, &w, nil, pipeSize); err != nil { // nil: not inherited
		return nil, fmt.Errorf("session: capture %s: pipe: %w", name, err)
	}
	rf := os.NewFile(uintptr(r), "capture-"+name)
	wf := os.NewFile(uintptr(w), "capture-"+name+"-w")
	rc, err := rf.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("session: capture %s: %w", name, err)
	}
	if err := setStdHandle(fd, w); err != nil {
		return nil, fmt.Errorf("session: capture %s: SetStdHandle: %w", name, err)
	}
	if fd == 2 {
		startStderr, os.Stderr, stderrFile = os.Stderr, wf, wf
	} else {
		startStdout, os.Stdout, stdoutFile = os.Stdout, wf, wf
	}
	return &capturePipe{name: name, w: wf, r: rf, rc: rc}, nil
}

// run moves the pipe's bytes into m as they arrive, reading under m's lock (see above).
func (p *capturePipe) run(m *merger) {
	buf := make([]byte, chunkSize)
	wait := pollMin
	for {
		var got int
		var end error
		m.mu.Lock()
		err := p.rc.Control(func(fd uintptr) {
			n, err := readFD(fd, buf)
			if n > 0 {
				m.addLocked(p.name, buf[:n])
			}
			got = n
			if err != nil && err != syscall.EAGAIN {
				end = err
			}
		})
		m.mu.Unlock()
		if err != nil || end != nil {
			fmt.Fprintf(LogWriter(), "session: capture %s ended: %v %v\n", p.name, err, end)
			return
		}
		if got > 0 {
			wait = pollMin
			continue
		}
		time.Sleep(wait)
		wait = min(2*wait, pollMax)
	}
}

// stopCapture puts the original standard handles and os.Stdout and os.Stderr back (for tests,
// whose runner prints to standard output after the last test).
func stopCapture() {
	if outPipe == nil {
		return
	}
	flushCapture()
	setStdHandle(1, syscall.Handle(origStdout.Fd()))
	setStdHandle(2, syscall.Handle(origStderr.Fd()))
	os.Stdout, os.Stderr = startStdout, startStderr
}
