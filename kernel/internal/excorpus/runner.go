package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// hardGrace is how long past a run's own timeout the command waits for the worker's answer
// before it kills the worker (a cell stuck where the interrupt cannot reach it).
const hardGrace = 20 * time.Second

// A runner executes runs in a worker process, restarting the worker when it dies or when a run
// timed out (its goroutines may still be running).
type runner struct {
	exe  string   // the worker's executable
	args []string // its arguments

	cmd     *exec.Cmd
	runs    *os.File       // write end of the worker's fd 3
	results chan runResult // decoded from the worker's fd 4
	exited  chan struct{}  // closed when the result stream ends
	stray   *strayBuffer   // the worker's own stdout and stderr
	starts  int            // workers started
	decErr  error          // why the result stream ended
	mu      sync.Mutex
}

const strayLimit = 64 << 10

// strayBuffer keeps the first strayLimit bytes the worker writes outside any cell since the last
// take: its log, crash reports, output of goroutines that outlived their cell.
type strayBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *strayBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	// Keep the head: a crash report starts with its reason, then the stacks (megabytes).
	if room := strayLimit - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// take returns and forgets what was written.
func (b *strayBuffer) take() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := string(b.buf)
	b.buf = b.buf[:0]
	return s
}

func newRunner(exe string, args ...string) *runner {
	return &runner{exe: exe, args: args, stray: &strayBuffer{}}
}

func (r *runner) start() error {
	runsR, runsW, err := os.Pipe()
	if err != nil {
		return err
	}
	resR, resW, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd := exec.Command(r.exe, r.args...)
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	cmd.ExtraFiles = []*os.File{runsR, resW}
	cmd.Stdout = r.stray
	cmd.Stderr = r.stray
	cmd.WaitDelay = 2 * time.Second // a program an example started may hold the pipes
	if err := cmd.Start(); err != nil {
		runsR.Close()
		runsW.Close()
		resR.Close()
		resW.Close()
		return fmt.Errorf("start worker: %w", err)
	}
	runsR.Close()
	resW.Close()
	r.cmd, r.runs = cmd, runsW
	r.results = make(chan runResult, 1) // one run at a time: a late result never blocks
	r.exited = make(chan struct{})
	r.starts++
	results, exited := r.results, r.exited
	go func() {
		defer close(exited)
		defer resR.Close()
		dec := json.NewDecoder(resR)
		for {
			var res runResult
			if err := dec.Decode(&res); err != nil {
				r.mu.Lock()
				r.decErr = err
				r.mu.Unlock()
				return
			}
			results <- res
		}
	}()
	return nil
}

// stop ends the worker: politely (its fd 3 closes) or, with kill, at once.
func (r *runner) stop(kill bool) {
	if r.cmd == nil {
		return
	}
	r.runs.Close()
	if kill {
		r.cmd.Process.Kill()
	} else {
		t := time.AfterFunc(5*time.Second, func() { r.cmd.Process.Kill() })
		defer t.Stop()
	}
	r.cmd.Wait()
	<-r.exited
	r.cmd = nil
}

// do executes one run in the worker.
func (r *runner) do(x run) runResult {
	if r.cmd == nil {
		if err := r.start(); err != nil {
			return runResult{Cell: -1, ErrName: "Harness", Err: err.Error()}
		}
	}
	r.stray.take()
	start := time.Now()
	if err := json.NewEncoder(r.runs).Encode(x); err != nil {
		r.stop(true)
		return runResult{Cell: -1, ErrName: "Crash", Err: "worker gone: " + err.Error(), Crash: r.stray.take()}
	}
	timer := time.NewTimer(x.Timeout + hardGrace)
	defer timer.Stop()
	select {
	case res := <-r.results:
		if res.TimedOut {
			r.stop(true) // its goroutines may still run and print into the next example
		}
		return res
	case <-r.exited:
		cmd := r.cmd
		r.stop(true)
		out := r.stray.take()
		msg := crashLine(out)
		if cmd.ProcessState != nil {
			msg = "worker " + cmd.ProcessState.String() + ": " + msg
		}
		return runResult{Cell: -1, ErrName: "Crash", Err: msg, Crash: out, Elapsed: time.Since(start)}
	case <-timer.C:
		r.stop(true)
		return runResult{Cell: -1, ErrName: "Interrupted", Err: "no answer from the worker: killed", TimedOut: true,
			Crash: r.stray.take(), Elapsed: time.Since(start)}
	}
}

// crashLine is the reason in a crash report of the worker: its first "fatal error:" or
// "panic:" line, or, when the runtime wrote that line into the cell's capture pipe (lost with the
// process), the function that threw.
func crashLine(out string) string {
	lines := strings.Split(out, "\n")
	for _, l := range lines {
		for _, p := range []string{"fatal error:", "panic:", "SIGSEGV", "SIGBUS", "runtime: "} {
			if strings.HasPrefix(l, p) {
				return l
			}
		}
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "runtime.throw(") || strings.HasPrefix(l, "runtime.fatal(") {
			for _, f := range lines[i+1:] {
				if f == "" || strings.HasPrefix(f, "\t") {
					continue
				}
				f, _, _ = strings.Cut(f, "(")
				if f == "runtime.newstack" {
					return "fatal error: stack overflow (thrown by runtime.newstack)"
				}
				return "fatal error thrown by " + f
			}
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return "crashed: " + l
		}
	}
	return "crashed without a message"
}
