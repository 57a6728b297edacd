package grade

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A cgroup holds one kernel and every process it starts, setsid or not: the system caps their
// memory together (the OOM killer ends one of them past it), how many tasks (processes and
// threads) they are and, where it can, their CPU time, and the grader ends them all at once when
// the kernel's run ends. It is
// made under the grader's own cgroup, in cgroup v1's memory and pids hierarchies (this
// machine's kind) or in cgroup v2's one hierarchy (most class servers'), where the grader may:
// as root, or in a cgroup delegated to its user (systemd-run --user --scope -p Delegate=yes).
type cgroup struct {
	dirs   []string // the group's directory in each hierarchy it is in
	events string   // the file that counts its OOM kills: v1's memory.oom_control, v2's memory.events
	kill   string   // v2's cgroup.kill (Linux 5.14; killAll falls back where it is missing), "" in v1
}

// own is where the grader's cgroups were when it first looked (hierarchies), and, in cgroup v2,
// whether the memory and pids controllers could be enabled for the kernels' cgroups there.
var own struct {
	once sync.Once
	dirs map[string]string
	err  error
	v2   struct {
		once sync.Once
		err  error
		cpu  bool // the cpu controller enabled too (it may not be there)
	}
}

// hierarchies finds where this process's cgroups are, from /proc/self/cgroup and the mounts in
// /proc/self/mountinfo (cgroupDirs), as they were at its first call: in cgroup v2 the grader
// may have moved itself since (enableV2).
func hierarchies() (map[string]string, error) {
	own.once.Do(func() {
		cgroups, err := os.ReadFile("/proc/self/cgroup")
		if err != nil {
			own.err = err
			return
		}
		mounts, err := os.ReadFile("/proc/self/mountinfo")
		if err != nil {
			own.err = err
			return
		}
		own.dirs, own.err = cgroupDirs(string(cgroups), string(mounts))
	})
	return own.dirs, own.err
}

// enableV2 enables the memory and pids controllers, and the cpu controller where it can, for
// the children of the grader's v2 cgroup dir, once. Linux allows it in the root cgroup, or in one that holds no process itself: where
// the grader's holds it (EBUSY; a delegated scope, say: systemd-run --scope -p Delegate=yes),
// the grader moves itself to a child of its own (gptnotes-grade-PID-grader) and tries again,
// which works where it was alone there.
func enableV2(dir string) error {
	own.v2.once.Do(func() {
		enable := func() error {
			return os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+memory +pids"), 0)
		}
		err := enable()
		if errors.Is(err, syscall.EBUSY) {
			leaf := filepath.Join(dir, tempPrefix()+"grader")
			if err = os.Mkdir(leaf, 0o755); err == nil || errors.Is(err, os.ErrExist) {
				if err = os.WriteFile(filepath.Join(leaf, "cgroup.procs"), []byte(strconv.Itoa(os.Getpid())), 0); err == nil {
					err = enable()
				}
			}
		}
		if err != nil {
			own.v2.err = fmt.Errorf("grade: cgroup: enable memory and pids in %s: %w", dir, err)
			return
		}
		own.v2.cpu = os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+cpu"), 0) == nil
	})
	return own.v2.err
}

// cgroupDirs reads a process's /proc/PID/cgroup and /proc/PID/mountinfo: for cgroup v1, the
// directories of its memory, pids and cpu cgroups, by controller; for v2, its cgroup's directory
// (key ""), where no v1 memory hierarchy is mounted (a hybrid system's v2 then holds no memory
// controller).
//
//	4:memory:/process_api/36ad  and  … /sys/fs/cgroup/memory … - cgroup cgroup rw,memory
//	→ {"memory": "/sys/fs/cgroup/memory/process_api/36ad", …}
//	0::/user.slice/grader.scope  and  … /sys/fs/cgroup … - cgroup2 cgroup2 rw
//	→ {"": "/sys/fs/cgroup/user.slice/grader.scope"}
func cgroupDirs(cgroups, mountinfo string) (map[string]string, error) {
	own := map[string]string{} // controller ("" for v2) → the path of the process's cgroup in it
	for _, line := range strings.Split(strings.TrimSpace(cgroups), "\n") {
		f := strings.SplitN(line, ":", 3) // id:controllers:path
		if len(f) != 3 {
			continue
		}
		for _, c := range strings.Split(f[1], ",") {
			own[c] = f[2]
		}
	}
	dirs := map[string]string{}
	for _, line := range strings.Split(mountinfo, "\n") {
		// id parent major:minor root mountpoint options … - fstype source superoptions
		pre, post, ok := strings.Cut(line, " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 3 {
			continue
		}
		root, point := f[3], f[4]
		switch g[0] {
		case "cgroup":
			for _, c := range strings.Split(g[2], ",") {
				if p, ok := own[c]; ok && (c == "memory" || c == "pids" || c == "cpu") {
					dirs[c] = filepath.Join(point, strings.TrimPrefix(p, root))
				}
			}
		case "cgroup2":
			if p, ok := own[""]; ok {
				dirs[""] = filepath.Join(point, strings.TrimPrefix(p, root))
			}
		}
	}
	if dirs["memory"] != "" {
		delete(dirs, "")
		return dirs, nil
	}
	if v2 := dirs[""]; v2 != "" {
		return map[string]string{"": v2}, nil
	}
	return nil, errors.New("no cgroup hierarchy with a memory controller is mounted")
}

// newCgroup makes the cgroup name under the grader's own, its memory capped at memory bytes (0:
// not capped), its tasks at tasks and, where the cpu controller is there to do it, its CPU time
// at cpus cores (a busy loop in every thread and program it starts takes no more). It fails
// where the grader may not make one.
func newCgroup(name string, memory int64, tasks, cpus int) (*cgroup, error) {
	hs, err := hierarchies()
	if err != nil {
		return nil, fmt.Errorf("grade: cgroup: %w", err)
	}
	g := &cgroup{}
	type setting struct{ file, value string }
	var settings []struct {
		dir string
		setting
	}
	add := func(dir string, ss ...setting) {
		for _, s := range ss {
			settings = append(settings, struct {
				dir string
				setting
			}{dir, s})
		}
	}
	mem, pids := strconv.FormatInt(memory, 10), strconv.Itoa(tasks)
	const period = 100000 // µs: the CPU time is counted per 0.1 s
	quota := strconv.Itoa(max(cpus, 1) * period)
	if v2, ok := hs[""]; ok {
		if err := enableV2(v2); err != nil {
			return nil, err
		}
		dir := filepath.Join(v2, name)
		g.dirs, g.events, g.kill = []string{dir}, filepath.Join(dir, "memory.events"), filepath.Join(dir, "cgroup.kill")
		add(dir, setting{"pids.max", pids})
		if memory > 0 {
			add(dir, setting{"memory.max", mem}, setting{"memory.swap.max", "0"})
		}
		if own.v2.cpu {
			add(dir, setting{"cpu.max", quota + " " + strconv.Itoa(period)})
		}
	} else {
		m := filepath.Join(hs["memory"], name)
		g.dirs, g.events = []string{m}, filepath.Join(m, "memory.oom_control")
		if memory > 0 {
			// the limit with swap can be set only at or above the limit without it
			add(m, setting{"memory.limit_in_bytes", mem}, setting{"memory.memsw.limit_in_bytes", mem})
		}
		if p := hs["pids"]; p != "" {
			g.dirs = append(g.dirs, filepath.Join(p, name))
			add(filepath.Join(p, name), setting{"pids.max", pids})
		}
		if c := hs["cpu"]; c != "" {
			g.dirs = append(g.dirs, filepath.Join(c, name))
			add(filepath.Join(c, name), setting{"cpu.cfs_period_us", strconv.Itoa(period)}, setting{"cpu.cfs_quota_us", quota})
		}
	}
	for _, d := range g.dirs {
		if err := os.Mkdir(d, 0o755); err != nil {
			g.remove()
			return nil, fmt.Errorf("grade: cgroup: %w", err)
		}
	}
	for _, s := range settings {
		err := os.WriteFile(filepath.Join(s.dir, s.file), []byte(s.value), 0)
		if err != nil && !(errors.Is(err, os.ErrNotExist) && strings.Contains(s.file, "sw")) { // no swap accounting: nothing to cap
			g.remove()
			return nil, fmt.Errorf("grade: cgroup: %s: %w", s.file, err)
		}
	}
	return g, nil
}

// add puts process pid in the group; what it starts from then on is in it too.
func (g *cgroup) add(pid int) error {
	for _, d := range g.dirs {
		if err := os.WriteFile(filepath.Join(d, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
			return fmt.Errorf("grade: cgroup: add %d: %w", pid, err)
		}
	}
	return nil
}

// procs are the processes in the group.
func (g *cgroup) procs() []int {
	data, _ := os.ReadFile(filepath.Join(g.dirs[0], "cgroup.procs"))
	var out []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// oomKilled reports whether the system killed a process of the group for its memory.
func (g *cgroup) oomKilled() bool {
	data, _ := os.ReadFile(g.events)
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "oom_kill" {
			return f[1] != "0"
		}
	}
	return false
}

// killAll kills every process in the group, over rounds (one may fork while a round runs; the
// task cap bounds how many), by cgroup.kill where v2 has it.
func (g *cgroup) killAll() {
	if g.kill != "" && os.WriteFile(g.kill, []byte("1"), 0) == nil {
		return
	}
	for range 20 {
		pids := g.procs()
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// remove kills what is left in the group and removes it, waiting up to a second for the killed
// processes to leave it.
func (g *cgroup) remove() {
	g.killAll()
	for _, d := range g.dirs {
		for i := 0; i < 100; i++ {
			err := syscall.Rmdir(d)
			if err == nil || errors.Is(err, syscall.ENOENT) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// removeStaleCgroups kills what is left in the cgroups of graders no longer running (a grader
// killed with kill -9: the programs its kernels started, setsid or not), and removes them.
func removeStaleCgroups() {
	hs, err := hierarchies()
	if err != nil {
		return
	}
	for _, h := range hs {
		dirs, _ := filepath.Glob(filepath.Join(h, "gptnotes-grade-*-*"))
		for _, d := range dirs {
			if pid, ok := graderOf(d); ok && pid != os.Getpid() && !running(pid) {
				(&cgroup{dirs: []string{d}}).remove()
			}
		}
	}
}
