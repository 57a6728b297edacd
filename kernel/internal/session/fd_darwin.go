package session

import "syscall"

// The descriptor calls capture.go needs, on macOS (fd_linux.go: Linux).

// cloexecPipe is a pipe whose two ends close on exec (macOS has no pipe2).
func cloexecPipe() (fds [2]int, err error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err = syscall.Pipe(fds[:]); err != nil {
		return fds, err
	}
	syscall.CloseOnExec(fds[0])
	syscall.CloseOnExec(fds[1])
	return fds, nil
}

// growPipe does nothing: macOS pipes grow by themselves.
func growPipe(fd, n int) {}

// dup2 makes newfd a copy of oldfd.
func dup2(oldfd, newfd int) error { return syscall.Dup2(oldfd, newfd) }
