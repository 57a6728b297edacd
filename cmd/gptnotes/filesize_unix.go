//go:build unix

package main

import (
	"os/signal"
	"syscall"
)

// ignoreFileSizeSignal makes a write past the file-size limit (RLIMIT_FSIZE, which `gptnotes
// grade` sets) fail with "file too large" in the cell, rather than end the kernel.
func ignoreFileSizeSignal() { signal.Ignore(syscall.SIGXFSZ) }
