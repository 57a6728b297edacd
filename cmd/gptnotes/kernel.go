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

// modelDirs are the directories a confined kernel may read the model from: the shipped model's,
// and those of $GPTNOTES_MODEL and $GPT2_WEIGHTS when they are set.
func modelDirs() []string {
	var dirs []string
	if p, err := gpt.ShippedModelPath(); err == nil {
		dirs = append(dirs, filepath.Dir(p))
	}
	for _, env := range []string{"GPTNOTES_MODEL", "GPT2_WEIGHTS"} {
		if p := os.Getenv(env); p != "" {
			dirs = append(dirs, p, filepath.Dir(p))
		}
	}
	return dirs
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
	if err := grade.Confine(dirs, append(modelDirs(), exe)); err != nil {
		return err
	}
	return syscall.Exec(exe, []string{exe, "kernel", connFile}, os.Environ())
}
