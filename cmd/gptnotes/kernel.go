package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/grade"
	"github.com/gptnotes/gptnotes/kernel"
	"github.com/gptnotes/gptnotes/kernel/engine"
	"github.com/gptnotes/gptnotes/kernel/modules"
)

func init() {
	register(command{name: "kernel", summary: "run the kernel on a connection file (Jupyter starts this)", run: runKernel})
}

func runKernel(args []string) error {
	fs := newFlags("kernel", "[--confine DIRS] CONNECTION_FILE",
		"Runs the Jupyter kernel on the sockets of CONNECTION_FILE until a shutdown_request.\nJupyter starts this through the kernelspec that `gptnotes install` writes.")
	confine := fs.String("confine", "", "confine the kernel (Linux's Landlock) to reading the system's files and the model, and\n"+
		"writing in these directories (a list like PATH's); `gptnotes grade` runs submissions so")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("want one connection file, got %d arguments", fs.NArg())
	}
	conn, err := kernel.ReadConnectionFile(fs.Arg(0))
	if err != nil {
		return err
	}
	if *confine != "" {
		return execConfined(filepath.SplitList(*confine), fs.Arg(0))
	}
	// SIGINT interrupts the running cell instead of killing the process (the client may send
	// it instead of an interrupt_request); SIGTERM ends the kernel.
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	ignoreFileSizeSignal()

	e, err := engine.New()
	if err != nil {
		return err
	}
	k := kernel.New(conn, e, engine.LogWriter())
	limit, err := kernel.MemoryLimitFromEnv() // GPTNOTES_MEMORY_LIMIT, set by a hub for its students
	if err != nil {
		return err
	}
	k.SetMemoryLimit(limit)
	ctx, stop := context.WithCancel(context.Background())
	go func() {
		for sig := range signals {
			if sig == syscall.SIGTERM {
				stop()
				return
			}
			k.Interrupt()
		}
	}()
	if err := k.Run(ctx); err != nil {
		return err
	}
	// A cell's goroutines may still run; the process ends with the kernel.
	os.Exit(0)
	return nil
}

// modelFiles are the files a confined kernel may read the model from: those of the shipped
// model ($GPTNOTES_MODEL, or testdata's), of the lesson model of notebook 3c
// ($GPTNOTES_LESSON_MODEL, or beside the shipped one) and of GPT-2's weights ($GPT2_WEIGHTS)
// when they are found, as gpt.Files lists them (the model, its config and its tokenizer), never the rest of
// their folders: GPT2_WEIGHTS=~/gpt2 must not open the teacher's home to a submission.
func modelFiles() []string {
	var models, files []string
	if p, err := gpt.ShippedModelPath(); err == nil {
		models = append(models, p)
	}
	if p, err := gpt.LessonModelPath(); err == nil {
		models = append(models, p)
	}
	if p, err := gpt.Find(); err == nil {
		models = append(models, p)
	}
	for _, p := range models {
		fs, err := gpt.Files(p)
		if err != nil {
			fs = []string{p} // not a model Open can read: the kernel will say so, reading it
		}
		files = append(files, fs...)
	}
	return files
}

// execConfined confines this thread to writing in dirs (grade.Confine) and replaces the process
// with an unconfined-looking `gptnotes kernel CONNECTION_FILE` that inherits the confinement.
// Landlock confines the calling thread and what it starts, and a Go program has other threads
// already; exec leaves only the confined one.
func execConfined(dirs []string, connFile string) error {
	runtime.LockOSThread() // Confine and Exec on one thread
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	readable := append(modelFiles(), exe)
	if env, err := modules.EnvFromOS(); err == nil {
		// The module cache, read-only: a graded notebook imports the modules it holds
		// (docs/modules.md; with no network, GOFLAGS=-mod=readonly).
		readable = append(readable, env.ModCache)
	}
	if err := grade.Confine(dirs, readable); err != nil {
		return err
	}
	// Files of grade.MaxFileSize at most, no core files, and the subreaper of what it starts,
	// so that the grader finds every one of them (grade.LimitProcesses).
	if err := grade.LimitProcesses(grade.MaxFileSize, 0); err != nil {
		return err
	}
	return syscall.Exec(exe, []string{exe, "kernel", connFile}, os.Environ())
}
