package grade

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gptnotes/gptnotes/kernel"
)

// Options say how to run submissions.
type Options struct {
	// Kernel is the command that runs a kernel, the connection file's path appended:
	// {"/usr/local/bin/gptnotes", "kernel"}.
	Kernel []string
	// Confine adds "--confine DIRS" before the connection file: the kernel confines itself
	// (Confine) to its own two directories. See ConfineAvailable.
	Confine     bool
	CellTimeout time.Duration // per cell, e.g. time.Minute: then the cell is interrupted
	// NotebookTimeout is each submission's time budget, e.g. 10 * time.Minute: the cell
	// running when it ends is interrupted, and no cell after it runs. 0: none.
	NotebookTimeout time.Duration
	Memory          int64 // the kernel's memory limit in bytes (GPTNOTES_MEMORY_LIMIT); 0: none
	Jobs            int   // kernels at once, e.g. runtime.NumCPU()
	Threads         int   // GOMAXPROCS of each kernel, e.g. NumCPU / Jobs
	// Exam reserves the functions the checks call (Reserved) for the checks: an answer that
	// calls one does not compile. Off, as for practice, answers may call the library.
	Exam bool
	// User is who the kernels run as (a grader run as root must give one: nobody, say), with
	// their directories made theirs; nil: the grader's own user.
	User *User
	// KernelReads are the files a kernel reads outside its directories: its program and the
	// model. With User set, Run refuses to start when User may not read one of them, since
	// every kernel would fail.
	KernelReads []string
	// Out is where the report is written, each submission's rows as it ends (journal.go): a
	// rerun into the same Out grades only what it did not. "": nothing is written.
	Out string
	// reserved is Reserved's list when Exam is set, for the kernel (GPTNOTES_RESERVED).
	reserved []string
}

// interruptGrace is how long a cell past its time limit has to stop once interrupted before the
// kernel is killed; startTimeout how long a kernel has to answer its first request.
const (
	interruptGrace = 5 * time.Second
	startTimeout   = time.Minute
)

// A Result is one submission graded.
type Result struct {
	Student  string
	Path     string
	Skipped  error     // why nothing ran (the file is not a notebook), nil when it ran
	Warnings []string  // what was read in place of what could not be (Notebook.Warnings)
	Steps    []RanStep // every cell, with what it showed
	Grades   []Grade   // one per check of the original, in the original's order
	Stopped  string    // why the run ended before its last cell, "" when it did not
	// Notes are the summary's words on the grades: a check cell changed, a check stopped by a
	// limit or failing to compile ("ex03-param-count: this check cell was changed").
	Notes   []string
	Elapsed time.Duration
	Before  bool // graded by an earlier run into the same directory (journal.go); no Steps
}

// A RanStep is a Step after the run.
type RanStep struct {
	Step
	Ran     bool
	Outputs []kernel.Output
	Failure string // why it failed ("not yet: …", "CompileError: …", a limit, the kernel's end), "" if not
	Grade   *Grade // a check's grade
}

// A Grade is one check's verdict for one student.
type Grade struct {
	Exercise string  // the check's grade_id
	Points   float64 // Max when the check passed, else 0
	Max      float64
	Passed   bool
	Message  string // the check's success line, or why it failed
}

// grade runs one submission on a fresh kernel and grades its checks.
func grade(ctx context.Context, opts Options, checks []Check, student, path string) *Result {
	start := time.Now()
	r := &Result{Student: student, Path: path}
	defer func() { r.Elapsed = time.Since(start) }()
	data, err := readSubmission(path)
	if err == nil {
		var nb *Notebook
		if nb, err = ParseNotebook(data); err == nil {
			r.Warnings = nb.Warnings
			for _, s := range Plan(checks, nb) {
				r.Steps = append(r.Steps, RanStep{Step: s})
			}
		}
	}
	if err != nil {
		r.Skipped = err
		for _, k := range checks {
			r.Grades = append(r.Grades, Grade{Exercise: k.ID, Max: k.Points, Message: "not graded: " + err.Error()})
		}
		return r
	}
	r.Stopped = r.execute(ctx, opts, newSeal(checks), data, filepath.Base(path))
	byID := map[string]Grade{}
	for i := range r.Steps {
		s := &r.Steps[i]
		if s.Check == nil {
			continue
		}
		g := Grade{Exercise: s.Check.ID, Max: s.Check.Points}
		switch {
		case !s.Ran:
			g.Message = "not reached: " + r.Stopped
		case s.Failure != "":
			g.Message = s.Failure
		default:
			g.Passed, g.Points, g.Message = true, s.Check.Points, firstLine(s.Outputs)
		}
		if s.Note != "" {
			g.Message = s.Note + "; " + g.Message
		}
		s.Grade = &g
		byID[g.Exercise] = g
	}
	for _, k := range checks { // Plan runs each check once
		r.Grades = append(r.Grades, byID[k.ID])
	}
	r.Notes = notes(r.Steps)
	return r
}

// notes are the summary's notes on the checks of a run: each one whose cell the student changed
// or deleted, and each one stopped by a limit or failing to compile.
func notes(steps []RanStep) []string {
	var out []string
	for _, s := range steps {
		switch g := s.Grade; {
		case s.Note != "":
			out = append(out, s.Check.ID+": "+strings.SplitN(s.Note, ":", 2)[0])
		case g != nil && !g.Passed && s.Ran && !strings.HasPrefix(g.Message, "not yet: "):
			// stopped by the time or memory limit, or failing to compile
			out = append(out, g.Exercise+": "+strings.SplitN(g.Message, ";", 2)[0])
		}
	}
	return out
}

// readSubmission reads a submission that is a regular file, not a symbolic link: a link
// would be graded as its target, which may be another's notebook or the teacher's. (A link in
// the folders above it is the teacher's own layout, and followed.)
func readSubmission(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("grade: %w", err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		target, _ := os.Readlink(path)
		return nil, fmt.Errorf("grade: %s is a symbolic link (to %s), not a notebook: submit the file itself", path, target)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("grade: %s is not a regular file (%s)", path, fi.Mode().Type())
	}
	return os.ReadFile(path)
}

// execute runs the code steps in order on a fresh kernel, in a temporary directory that holds
// only a copy of the notebook. It returns why it stopped before the end, "" if it did not.
func (r *Result) execute(ctx context.Context, opts Options, seal seal, notebook []byte, name string) (stopped string) {
	work, err := os.MkdirTemp("", tempPrefix()+"work-")
	if err != nil {
		return "grade: " + err.Error()
	}
	defer os.RemoveAll(work)
	if err := os.WriteFile(filepath.Join(work, name), notebook, 0o600); err != nil {
		return "grade: " + err.Error()
	}
	// The connection file and the sockets live apart from the work directory, which holds only
	// the notebook.
	private, err := os.MkdirTemp("", tempPrefix()+"kernel-")
	if err != nil {
		return "grade: " + err.Error()
	}
	defer os.RemoveAll(private)
	conn, connPath, err := writeConnection(private)
	if err != nil {
		return "grade: " + err.Error()
	}
	if err := opts.User.give(work, filepath.Join(work, name), private, connPath); err != nil {
		return err.Error()
	}

	p, err := startKernel(ctx, opts, work, connPath, "GPTNOTES_CHECK_KEY="+seal.key,
		"GPTNOTES_RESERVED="+strings.Join(opts.reserved, ","))
	if err != nil {
		return "the kernel did not start: " + err.Error()
	}
	defer p.stop()
	dial, cancel := context.WithTimeout(p.ctx, startTimeout)
	waitListening(dial, conn)
	c, err := kernel.Dial(dial, conn)
	cancel()
	if err != nil {
		return "the kernel did not start: " + p.why(err)
	}
	defer c.Close()
	// The kernel read the connection file before it listened, and no cell has run: the file,
	// with the key that signs the grader's messages, goes before the submission can read it.
	if err := os.Remove(connPath); err != nil {
		return "grade: " + err.Error()
	}

	var deadline time.Time
	if opts.NotebookTimeout > 0 {
		deadline = time.Now().Add(opts.NotebookTimeout)
	}
	kept := 0 // bytes of outputs kept so far
	for i := range r.Steps {
		s := &r.Steps[i]
		if s.Type != "code" || strings.TrimSpace(s.Source) == "" {
			continue
		}
		limit := opts.CellTimeout
		if !deadline.IsZero() {
			left := time.Until(deadline)
			if left <= 0 {
				return fmt.Sprintf("cell %d: the notebook ran past its time budget of %s", i+1, opts.NotebookTimeout)
			}
			limit = min(limit, left)
		}
		s.Ran = true
		fatal := p.runCell(c, s, seal, limit)
		kept = keepOutputs(s, kept)
		if fatal != "" {
			return fmt.Sprintf("cell %d: %s", i+1, fatal)
		}
	}
	return ""
}

// tempPrefix begins the names of this grader's temporary directories, with its process id
// (gptnotes-grade-4242-work-…), so that a later run can remove those of a grader that was
// killed before it could (removeStale).
func tempPrefix() string { return fmt.Sprintf("gptnotes-grade-%d-", os.Getpid()) }

// removeStale removes the temporary directories of graders no longer running: what a grader
// killed with kill -9 left (a submission's copy, its kernel's sockets).
// It also ends what such a grader's kernels started and left in their cgroups.
func removeStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "gptnotes-grade-*-*-*"))
	for _, d := range dirs {
		if pid, ok := graderOf(d); ok && pid != os.Getpid() && !running(pid) {
			os.RemoveAll(d)
		}
	}
	removeStaleCgroups()
}

// graderOf is the process id of the grader that named path (tempPrefix).
func graderOf(path string) (int, bool) {
	pid, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(filepath.Base(path), "gptnotes-grade-"), "-", 2)[0])
	return pid, err == nil
}

// MaxKept is how many bytes of outputs the grader keeps of one submission, for its feedback
// page: past it, a cell's outputs are replaced by a line that says so (the kernel's client
// already keeps at most MaxOutputText and MaxOutputData of each cell).
const MaxKept = 8 << 20

// keepOutputs drops s's outputs when, with the kept bytes before it, they pass MaxKept, and
// returns the bytes kept now.
func keepOutputs(s *RanStep, kept int) int {
	n := 0
	for _, o := range s.Outputs {
		n += len(o.Text) + len(o.EValue)
		for _, line := range o.Traceback {
			n += len(line)
		}
		for _, v := range o.Data {
			if text, ok := v.(string); ok {
				n += len(text)
			} else {
				n += 1 << 10 // a JSON value: counted as 1 KiB
			}
		}
	}
	if kept+n > MaxKept {
		s.Outputs = []kernel.Output{{Type: kernel.MsgStream, Name: "stderr",
			Text: fmt.Sprintf("[this cell's %d bytes of output dropped: the notebook's outputs passed %d bytes]\n", n, MaxKept)}}
		return kept
	}
	return kept + n
}

// runCell runs one step, a check sealed (verdict.go), interrupting it past limit and killing
// the kernel if it then does not stop. It sets the step's outputs and failure, and returns why
// the kernel is gone, if it is.
func (p *proc) runCell(c *kernel.Client, s *RanStep, seal seal, limit time.Duration) (fatal string) {
	var interrupted atomic.Bool
	t := time.AfterFunc(limit, func() { interrupted.Store(true); p.interrupt() })
	defer t.Stop()
	errHung := fmt.Errorf("ran past the time limit of %s and did not stop when interrupted: the kernel was killed", limit)
	ctx, cancel := context.WithTimeoutCause(p.ctx, limit+interruptGrace, errHung)
	defer cancel()
	src := s.Source
	if s.Check != nil {
		src = seal.source(s.Check)
	}
	run, err := c.Execute(ctx, src)
	reached := false
	if run != nil {
		s.Outputs = run.Outputs
		if s.Check != nil {
			s.Outputs, reached = seal.takeVerdict(s.Check, run.Outputs)
		}
	}
	if err != nil {
		if ctx.Err() == nil {
			p.awaitEnd() // the sockets closed: its exit status says why
		}
		s.Failure = p.why(err)
		p.kill(s.Failure)
		return s.Failure
	}
	switch {
	case interrupted.Load() && run.Status != "ok":
		s.Failure = fmt.Sprintf("ran past the time limit of %s and was interrupted", limit)
	case run.Status != "ok":
		s.Failure = errorText(run)
	case s.Check != nil && !reached:
		s.Failure = "the check did not reach its end (its last line is not the grader's)"
	}
	return ""
}

// errorText is how a failed cell's error reads in a grade: a panic's value ("not yet: …"),
// otherwise the error's name and value ("CompileError: cell:3:2: undefined: softmaxT").
func errorText(run *kernel.Execution) string {
	name, value := run.EName, run.EValue
	for _, o := range run.Outputs {
		if o.Type == kernel.MsgError {
			name, value = o.EName, o.EValue
			break
		}
	}
	if name == "Panic" {
		return value
	}
	if name == "" {
		return "the cell failed (" + run.Status + ")"
	}
	return name + ": " + value
}

// firstLine is the first line a passing check printed, e.g. "Exercise 5: right.".
func firstLine(outputs []kernel.Output) string {
	for _, o := range outputs {
		if o.Type == kernel.MsgStream && o.Name == "stdout" {
			if line, _, _ := strings.Cut(strings.TrimSpace(o.Text), "\n"); line != "" {
				return line
			}
		}
	}
	return "right"
}

// waitListening returns once the kernel's ipc sockets are in its private directory (bound), or
// ctx ends: a dial before would fail, and the client would try again only a quarter of a second
// later (zmq4's retry), which was most of a kernel's start.
func waitListening(ctx context.Context, conn kernel.ConnectionInfo) {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for _, port := range []int{conn.ShellPort, conn.IOPubPort, conn.ControlPort, conn.StdinPort, conn.HBPort} {
		for {
			if _, err := os.Stat(fmt.Sprintf("%s-%d", conn.IP, port)); err == nil {
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}
}

// writeConnection writes a connection file for a kernel on ipc sockets in dir, with a fresh key.
func writeConnection(dir string) (kernel.ConnectionInfo, string, error) {
	key := make([]byte, 32)
	rand.Read(key)
	conn := kernel.ConnectionInfo{Transport: "ipc", IP: filepath.Join(dir, "kernel"), ShellPort: 1, ControlPort: 2,
		StdinPort: 3, IOPubPort: 4, HBPort: 5, Key: hex.EncodeToString(key), SignatureScheme: "hmac-sha256",
		KernelName: "gptnotes"}
	data, err := json.Marshal(conn)
	if err != nil {
		return conn, "", err
	}
	path := filepath.Join(dir, "kernel.json")
	return conn, path, os.WriteFile(path, data, 0o600)
}

// errKernelEnded is the cause of a proc's context when the kernel process ends.
var errKernelEnded = errors.New("the kernel ended")
