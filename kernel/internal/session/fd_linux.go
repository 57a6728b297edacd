package session

import "syscall"

// The descriptor calls capture.go needs, on Linux (fd_darwin.go: macOS).

// cloexecPipe is a pipe whose two ends close on exec.
func cloexecPipe() (fds [2]int, err error) {
	err = syscall.Pipe2(fds[:], syscall.O_CLOEXEC)
	return fds, err
}

// growPipe asks for a pipe buffer of n bytes (F_SETPIPE_SZ); it keeps the default if refused.
func growPipe(fd, n int) {
	const setPipeSize = 1031 // F_SETPIPE_SZ
	syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), setPipeSize, uintptr(n))
}

// dup2 makes newfd a copy of oldfd (dup3 with no flags: every Linux architecture has it, arm64
// has no dup2).
func dup2(oldfd, newfd int) error { return syscall.Dup3(oldfd, newfd, 0) }
