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
	"time"
)

// MaxFileSize is the largest file a confined kernel, or a program it starts, may write: past it
// the write fails with "file too large" (Linux's RLIMIT_FSIZE, set by LimitProcesses).
const MaxFileSize = 256 << 20

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
	log    *tail // the kernel's stderr (its log), last bytes
}

// startKernel starts opts.Kernel on connPath in work, in a process group of its own (the
// programs a cell starts are killed with it) and, where the system allows, a network namespace
// of its own (netns_linux.go), confined to work and connPath's directory when
// opts.Confine is set. Its environment is new: HOME and TMPDIR in work, the memory limit, and
// the model's location if the grader has one set, and env.
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
	for _, k := range []string{"GPTNOTES_MODEL", "GPT2_WEIGHTS"} {
		if v := os.Getenv(k); v != "" {
			if abs, err := filepath.Abs(v); err == nil {
				v = abs // the kernel runs in work
			}
			env = append(env, k+"="+v)
		}
	}
	p := &proc{exited: make(chan struct{}), log: &tail{max: 8 << 10}}
	kernels.mu.Lock()
	for {
		// The best network isolation not yet refused here; refused, the next one.
		net := netIsolation(netMode.Load())
		cmd := exec.Command(opts.Kernel[0], append(args, connPath)...)
		cmd.Dir, cmd.Env = work, env
		cmd.Stdout, cmd.Stderr = p.log, p.log
		cmd.WaitDelay = 2 * time.Second // a program a cell started may hold the pipes open
		ownGroup(cmd, net)
		err := cmd.Start()
		if err == nil {
			p.cmd = cmd
			break
		}
		if !refusedNamespace(net, err) {
			kernels.mu.Unlock()
			return nil, err
		}
		netMode.CompareAndSwap(int32(net), int32(net+1))
	}
	cmd := p.cmd
	kernels.pids[cmd.Process.Pid] = true
	kernels.mu.Unlock()
	p.ctx, p.cancel = context.WithCancelCause(ctx)
	go func() {
		err := cmd.Wait()
		kernels.mu.Lock()
		delete(kernels.pids, cmd.Process.Pid)
		kernels.mu.Unlock()
		p.cancel(fmt.Errorf("%w (%v)", errKernelEnded, err))
		close(p.exited)
	}()
	if opts.Memory > 0 {
		go p.watchMemory(2 * opts.Memory)
	}
	return p, nil
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
	kernels.mu.Lock()
	killOrphans() // those of a kernel that ended on its own, with the kernel gone as their subreaper
	kernels.mu.Unlock()
}

// watchMemory is the backstop behind the kernel's own memory limit: a kernel whose resident set,
// with those of the programs it started, passes hard (twice the limit) is killed. Where the
// system does not say (no /proc), it does nothing.
func (p *proc) watchMemory(hard int64) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.exited:
			return
		case <-t.C:
			rss := residentSet(p.cmd.Process.Pid)
			for _, d := range descendants(p.cmd.Process.Pid) {
				rss += residentSet(d)
			}
			if rss > hard {
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
