package grade

import (
	"fmt"
	"syscall"
)

// prSetChildSubreaper is Linux's PR_SET_CHILD_SUBREAPER (include/uapi/linux/prctl.h).
const prSetChildSubreaper = 36

// LimitProcesses sets this process's resource limits, which every process it starts inherits
// and cannot raise: no core files, no file written past fileSize bytes (the writer gets EFBIG,
// or SIGXFSZ where not ignored), no address space past addressSpace bytes (0: left as it is).
// It also makes this process its descendants' subreaper: a program a cell starts that leaves
// its process group (setsid) and its parent stays a descendant of the kernel, where the grader
// finds and kills it (proc.killTree). Both hold across exec; `gptnotes kernel --confine` calls
// it before it execs itself.
func LimitProcesses(fileSize, addressSpace int64) error {
	limits := []struct {
		resource int
		max      int64
	}{{syscall.RLIMIT_CORE, 0}, {syscall.RLIMIT_FSIZE, fileSize}, {syscall.RLIMIT_AS, addressSpace}}
	for _, l := range limits {
		if l.max <= 0 && l.resource != syscall.RLIMIT_CORE {
			continue
		}
		var old syscall.Rlimit
		if err := syscall.Getrlimit(l.resource, &old); err != nil {
			return fmt.Errorf("grade: limit: %w", err)
		}
		if uint64(l.max) >= old.Max {
			continue // already as low
		}
		if err := syscall.Setrlimit(l.resource, &syscall.Rlimit{Cur: uint64(l.max), Max: uint64(l.max)}); err != nil {
			return fmt.Errorf("grade: limit %d to %d: %w", l.resource, l.max, err)
		}
	}
	if _, _, errno := syscall.Syscall6(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0, 0, 0, 0); errno != 0 {
		return fmt.Errorf("grade: subreaper: %v", errno)
	}
	return nil
}
