//go:build unix

package session

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// The descriptor side of output capture on Unix: fds 1 and 2 are replaced by pipes (dup2), whose
// non-blocking read ends the runtime's poller watches (capture_windows.go: Windows).

func dupFile(fd int, name string) (*os.File, error) {
	nfd, err := syscall.Dup(fd)
	if err != nil {
		return nil, fmt.Errorf("session: capture: dup %s: %w", name, err)
	}
	syscall.CloseOnExec(nfd)
	return os.NewFile(uintptr(nfd), "original-"+name), nil
}

// readFD reads from a non-blocking descriptor, retrying on EINTR.
func readFD(fd uintptr, b []byte) (int, error) {
	for {
		n, err := syscall.Read(int(fd), b)
		if err == syscall.EINTR {
			continue
		}
		if n < 0 {
			n = 0
		}
		if err == nil && n == 0 {
			err = io.EOF
		}
		return n, err
	}
}

func newCapturePipe(fd int, name string) (*capturePipe, error) {
	// The read end is non-blocking (read by the runtime poller and drained without blocking);
	// the write end stays blocking, as os.Stdout was opened blocking and would drop output on
	// EAGAIN.
	fds, err := cloexecPipe()
	if err != nil {
		return nil, fmt.Errorf("session: capture %s: pipe: %w", name, err)
	}
	growPipe(fds[1], pipeSize) // best effort
	if err := syscall.SetNonblock(fds[0], true); err != nil {
		return nil, fmt.Errorf("session: capture %s: %w", name, err)
	}
	r := os.NewFile(uintptr(fds[0]), "capture-"+name)
	w := os.NewFile(uintptr(fds[1]), "capture-"+name+"-w")
	rc, err := r.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("session: capture %s: %w", name, err)
	}
	if err := dup2(fds[1], fd); err != nil {
		return nil, fmt.Errorf("session: capture %s: dup2: %w", name, err)
	}
	return &capturePipe{name: name, w: w, r: r, rc: rc}, nil
}

// run moves the pipe's bytes into m as they arrive. Each read happens under m's lock, so no Go
// write can pass bytes that were already read from the pipe.
func (p *capturePipe) run(m *merger) {
	buf := make([]byte, chunkSize)
	for {
		var end error
		err := p.rc.Read(func(fd uintptr) bool {
			m.mu.Lock()
			defer m.mu.Unlock()
			n, err := readFD(fd, buf)
			if n > 0 {
				m.addLocked(p.name, buf[:n])
				return true
			}
			if errors.Is(err, syscall.EAGAIN) {
				return false // wait until the pipe is readable
			}
			end = err
			return true
		})
		if err != nil || end != nil {
			fmt.Fprintf(LogWriter(), "session: capture %s ended: %v %v\n", p.name, err, end)
			return
		}
	}
}

// stopCapture puts the original descriptors back (for tests, whose runner prints to fd 1 after
// the last test).
func stopCapture() {
	if outPipe == nil {
		return
	}
	flushCapture()
	dup2(int(origStdout.Fd()), 1)
	dup2(int(origStderr.Fd()), 2)
}
