package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gptnotes/gptnotes/kernel/display"
	"github.com/gptnotes/gptnotes/kernel/internal/session"
)

// The kernel runs in a worker process, not in the command: session.New redirects the process's
// fds 1 and 2 into its capture pipes, an interpreted program can crash the whole process (a
// fatal error, a panic in a goroutine of compiled code) or leave goroutines behind that write
// into the next example's output. The command starts the worker (itself, with workerEnv set),
// sends it runs over fd 3 and reads the results from fd 4; it restarts it after a crash or a
// timeout.

const workerEnv = "EXCORPUS_WORKER"

// A run is one program executed in a fresh session: its cells in order, in directory Dir.
type run struct {
	Dir     string
	Cells   []string
	Timeout time.Duration // for all cells together
}

// A runResult is what the session did with a run.
type runResult struct {
	Stdout, Stderr string
	Output         string // stdout and stderr together, in the order the cells wrote them
	Displays       int    // display outputs (not compared)
	Cell           int    // index of the failing cell, -1 if none
	ErrName        string // CellError name ("SyntaxError", "Interrupted", …), "" if no error
	Err            string // the error's text
	TimedOut       bool
	Crash          string // set by the command: the worker died during the run
	Elapsed        time.Duration
}

// recorder is a Sink that keeps the streams.
type recorder struct {
	mu             sync.Mutex
	stdout, stderr strings.Builder
	output         strings.Builder // both, in order
	displays       int
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.output.WriteString(text)
	if name == "stdout" {
		r.stdout.WriteString(text)
	} else {
		r.stderr.WriteString(text)
	}
}

func (r *recorder) Display(b display.Bundle, id string, update bool) {
	r.mu.Lock()
	r.displays++
	r.mu.Unlock()
}

func (r *recorder) ClearOutput(wait bool) {}

// execute runs r in a fresh session, in this process.
func execute(r run) runResult {
	start := time.Now()
	res := runResult{Cell: -1}
	if r.Dir != "" {
		if err := os.Chdir(r.Dir); err != nil {
			res.ErrName, res.Err = "Harness", err.Error()
			return res
		}
	}
	s, err := session.New()
	if err != nil {
		res.ErrName, res.Err = "Harness", err.Error()
		return res
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.Timeout)
	defer cancel()
	rec := &recorder{}
	for i, cell := range r.Cells {
		_, err := s.Execute(ctx, cell, rec)
		if err == nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		if err != nil {
			res.Cell = i
			res.Err = err.Error()
			res.ErrName = "Error"
			var ce *session.CellError
			if errors.As(err, &ce) {
				res.ErrName, res.Err = ce.Name, ce.Value
			}
			res.TimedOut = ctx.Err() != nil && (res.ErrName == "Interrupted" || errors.Is(err, context.DeadlineExceeded))
			break
		}
	}
	rec.mu.Lock()
	res.Stdout, res.Stderr, res.Output, res.Displays = rec.stdout.String(), rec.stderr.String(), rec.output.String(), rec.displays
	rec.mu.Unlock()
	res.Elapsed = time.Since(start)
	return res
}

// workerMain serves runs from fd 3, results to fd 4, until fd 3 closes.
func workerMain() {
	syscall.CloseOnExec(3) // programs the examples start must not hold the pipes open
	syscall.CloseOnExec(4)
	in := json.NewDecoder(os.NewFile(3, "runs"))
	out := json.NewEncoder(os.NewFile(4, "results"))
	for {
		var r run
		if err := in.Decode(&r); err != nil {
			if err != io.EOF {
				fmt.Fprintln(session.LogWriter(), "excorpus worker:", err)
			}
			return
		}
		if err := out.Encode(execute(r)); err != nil {
			return
		}
	}
}
