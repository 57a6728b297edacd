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
