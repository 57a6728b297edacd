package grade

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// MaxFileSize is the largest file a confined kernel, or a program it starts, may write: past it
// the write fails with "file too large" (Linux's RLIMIT_FSIZE, set by LimitProcesses).
const MaxFileSize = 256 << 20

// MaxTasks is how many tasks (processes and threads: the kernel's own are some 20) a kernel and
// what it starts may be at once: a cgroup's pids.max, or the watcher's count of the kernel's
// descendants where no cgroup could be made. A fork bomb stops there.
const MaxTasks = 256

// groups counts the kernels' cgroups, to name each (gptnotes-grade-PID-kN, removeStale finds
// them by it); noCgroup is why the first one could not be made, if it could not (the grader
// then says so once).
var (
	groups   atomic.Int64
	noCgroup atomic.Pointer[error]
)

// kernels are the kernels running, by process id, so that killOrphans knows them from the
// programs a kernel that ended left behind.
var kernels = struct {
	mu   sync.Mutex
	pids map[int]bool
}{pids: map[int]bool{}}

// A proc is one kernel process.
type proc struct {
	cmd    *exec.Cmd
	ctx    context.Context // cancelled, with the reason as its cause, when the kernel is gone
	cancel context.CancelCauseFunc
	exited chan struct{}
	log    *tail   // the kernel's stderr (its log), last bytes
	group  *cgroup // the kernel and what it starts, nil where none could be made
	hard   int64   // the memory the kernel and its programs may hold together, in bytes; 0: any
}

// startKernel starts opts.Kernel on connPath in work, in a process group of its own (the
// programs a cell starts are killed with it) and, where the system allows, in a network
// namespace (netns_linux.go) and a cgroup (cgroup_linux.go) of its own, as opts.User, confined
// to work and connPath's directory when opts.Confine is set. Its environment is new: HOME and
// TMPDIR in work, the memory limit, and the model's location if the grader has one set, and env.
func startKernel(ctx context.Context, opts Options, work, connPath string, env ...string) (*proc, error) {
	if len(opts.Kernel) == 0 {
		return nil, errors.New("grade: no kernel command")
	}
	args := append([]string{}, opts.Kernel[1:]...)
	if opts.Confine {
		args = append(args, "--confine", work+string(os.PathListSeparator)+filepath.Dir(connPath))
	}
	env = append([]string{
		"HOME=" + work, "TMPDIR=" + work, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8",
		"GPTNOTES_MEMORY_LIMIT=" + strconv.FormatInt(opts.Memory, 10),
		"GOMAXPROCS=" + strconv.Itoa(max(opts.Threads, 1)), "OPENBLAS_NUM_THREADS=" + strconv.Itoa(max(opts.Threads, 1)),
	}, env...)
	for _, k := range []string{"GPTNOTES_MODEL", "GPTNOTES_LESSON_MODEL", "GPT2_WEIGHTS"} {
		if v := os.Getenv(k); v != "" {
			if abs, err := filepath.Abs(v); err == nil {
				v = abs // the kernel runs in work
			}
			env = append(env, k+"="+v)
		}
	}
	p := &proc{exited: make(chan struct{}), log: &tail{max: 8 << 10}, hard: 2 * opts.Memory}
	group, err := newCgroup(fmt.Sprintf("%sk%d", tempPrefix(), groups.Add(1)), p.hard, MaxTasks, opts.Threads)
	if err != nil {
		noCgroup.CompareAndSwap(nil, &err)
	}
	kernels.mu.Lock()
	cmd, err := p.start(opts, append(args, connPath), work, env)
	if err != nil {
		kernels.mu.Unlock()
		if group != nil {
			group.remove()
		}
		return nil, err
	}
	kernels.pids[cmd.Process.Pid] = true
	kernels.mu.Unlock()
	// In its cgroup before it runs a cell (it starts nothing before): what it starts is there too.
	if group != nil {
		if err := group.add(cmd.Process.Pid); err != nil {
			noCgroup.CompareAndSwap(nil, &err)
			group.remove()
		} else {
			p.group = group
		}
	}
	p.ctx, p.cancel = context.WithCancelCause(ctx)
	go func() {
		err := cmd.Wait()
		kernels.mu.Lock()
		delete(kernels.pids, cmd.Process.Pid)
		kernels.mu.Unlock()
		if p.group != nil && p.group.oomKilled() {
			err = fmt.Errorf("%v: with the programs it started it passed %d MiB, twice its memory limit, and the system killed it", err, p.hard>>20)
		}
		p.cancel(fmt.Errorf("%w (%v)", errKernelEnded, err))
		close(p.exited)
	}()
	if p.group == nil {
		go p.watch()
	}
	go p.watchDisk(work, filepath.Dir(connPath))
	return p, nil
}

// start starts the kernel's process, with the best network isolation the system has not refused
// yet: refused, it tries the next (netMode remembers, for the kernels after).
func (p *proc) start(opts Options, args []string, work string, env []string) (*exec.Cmd, error) {
	for {
		net := netIsolation(netMode.Load())
		cmd := exec.Command(opts.Kernel[0], args...)
		cmd.Dir, cmd.Env = work, env
		cmd.Stdout, cmd.Stderr = p.log, p.log
		cmd.WaitDelay = 2 * time.Second // a program a cell started may hold the pipes open
		ownGroup(cmd, net, opts.User)
		err := cmd.Start()
		if err == nil {
			p.cmd = cmd
			return cmd, nil
		}
		if !refusedNamespace(net, err) {
			return nil, err
		}
		netMode.CompareAndSwap(int32(net), int32(net+1))
	}
}

// awaitEnd waits for the kernel to end once its sockets closed under a cell, so that its exit
// status says why: up to 2 s, but no more than 300 ms while the process runs on, as it does
// when the client closed them (refusing a frame the kernel sent), not the kernel by ending.
func (p *proc) awaitEnd() {
	start := time.Now()
	deadline := time.After(2 * time.Second)
	poll := time.NewTicker(50 * time.Millisecond)
	defer poll.Stop()
	for {
		select {
		case <-p.exited:
			return
		case <-deadline:
			return
		case <-poll.C:
			if time.Since(start) >= 300*time.Millisecond && running(p.cmd.Process.Pid) {
				return
			}
		}
	}
}

// why says why a request to the kernel failed: the proc's cause when it is gone.
func (p *proc) why(err error) string {
	if cause := context.Cause(p.ctx); cause != nil {
		err = cause
	}
	msg := err.Error()
	if errors.Is(err, errKernelEnded) {
		// What the process wrote last, unless it is one of the kernel's routine log lines
		// (a Go runtime's fatal error, say).
		if last := p.log.lastLine(); last != "" && !strings.HasPrefix(last, "gptnotes kernel: ") {
			msg += "; its last words: " + last
		}
	}
	return msg
}

// kill ends the kernel, the programs it started and its group at once, giving why as the cause.
func (p *proc) kill(why string) {
	p.cancel(errors.New(why))
	if p.group != nil {
		p.group.killAll()
	}
	killDescendants(p.cmd.Process.Pid)
	killGroup(p.cmd)
}

// stop kills the programs the kernel started, wherever they went (a new session: setsid),
// asks the kernel to end (SIGTERM), then kills its group, and waits for it.
func (p *proc) stop() {
	killDescendants(p.cmd.Process.Pid)
	terminate(p.cmd)
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
	}
	killGroup(p.cmd) // the programs a cell started, too
	<-p.exited
	if p.group != nil {
		p.group.remove() // every program it started, wherever it went
	}
	kernels.mu.Lock()
	killOrphans() // those of a kernel that ended on its own, with the kernel gone as their subreaper
	kernels.mu.Unlock()
}

// watch stands for the cgroup where none could be made, the backstop behind the kernel's own
// memory limit: a kernel whose resident set, with those of the programs it started, passes
// p.hard (twice the limit) is killed, and so is one with more than MaxTasks processes below it,
// each seen within a poll (200 ms). Where the system does not say (no /proc), it does nothing.
func (p *proc) watch() {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.exited:
			return
		case <-t.C:
			ds := descendants(p.cmd.Process.Pid)
			if len(ds) > MaxTasks {
				p.kill(fmt.Sprintf("started more than %d processes: the kernel was killed", MaxTasks))
				return
			}
			if p.hard <= 0 {
				continue
			}
			rss := residentSet(p.cmd.Process.Pid)
			for _, d := range ds {
				rss += residentSet(d)
			}
			if rss > p.hard {
				p.kill(fmt.Sprintf("held %d MiB with the programs it started, past twice its memory limit: the kernel was killed", rss>>20))
				return
			}
		}
	}
}

// residentSet is process pid's resident set in bytes from /proc (0 where there is none).
func residentSet(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// A tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// lastLine is the last non-empty line written.
func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
