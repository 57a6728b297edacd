package grade

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// descendants are the processes below pid (children, theirs, …), read from Linux's
// /proc/PID/task/TID/children. A kernel is its descendants' subreaper (LimitProcesses), so a
// program that left its process group and lost its parent is still among them.
func descendants(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if child, err := strconv.Atoi(f); err == nil {
				out = append(out, child)
				out = append(out, descendants(child)...)
			}
		}
	}
	return out
}

// killDescendants kills every process below pid, over a few rounds: a process that forked
// while the round killed its parent is found in the next (it goes to the kernel, the subreaper).
func killDescendants(pid int) {
	for range 5 {
		ds := descendants(pid)
		if len(ds) == 0 {
			return
		}
		for _, d := range ds {
			syscall.Kill(d, syscall.SIGKILL)
		}
	}
}

// adoptOrphans makes this process (the grader) the subreaper of its kernels' descendants: a
// program whose kernel ended on its own (a cell that killed it), with nobody left to kill it,
// comes to the grader rather than to init, and killOrphans ends it.
func adoptOrphans() error {
	if _, _, errno := syscall.Syscall6(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0, 0, 0, 0); errno != 0 {
		return fmt.Errorf("grade: subreaper: %v", errno)
	}
	return nil
}

// killOrphans kills and reaps every child of this process that is not a running kernel: with
// adoptOrphans, what a kernel that ended left behind. The caller holds kernels.mu, so that no
// kernel starts meanwhile.
func killOrphans() {
	for _, child := range descendants(os.Getpid()) {
		if kernels.pids[child] || !isChild(child) {
			continue
		}
		killDescendants(child)
		syscall.Kill(child, syscall.SIGKILL)
		var status syscall.WaitStatus
		syscall.Wait4(child, &status, 0, nil)
	}
}

// isChild reports whether pid's parent is this process (descendants lists grandchildren too).
func isChild(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b)[i+1:]) // state, ppid, …
	return len(f) > 1 && f[1] == strconv.Itoa(os.Getpid())
}
