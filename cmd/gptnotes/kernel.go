package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/gptnotes/gptnotes/kernel"
	"github.com/gptnotes/gptnotes/kernel/engine"
)

func init() {
	register(command{name: "kernel", summary: "run the kernel on a connection file (Jupyter starts this)", run: runKernel})
}

func runKernel(args []string) error {
	fs := newFlags("kernel", "CONNECTION_FILE",
		"Runs the Jupyter kernel on the sockets of CONNECTION_FILE until a shutdown_request.\nJupyter starts this through the kernelspec that `gptnotes install` writes.")
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
