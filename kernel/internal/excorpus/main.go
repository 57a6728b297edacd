// Command excorpus runs the Go distribution's own Example functions through the kernel, as an
// oracle: each example with an // Output: comment is a program and its expected standard output.
//
//	go run ./kernel/internal/excorpus pick -n 400 -seed 1 > testdata/examples.txt
//	go run ./kernel/internal/excorpus run [-list testdata/examples.txt] [-timeout 10s] [-v] [-out FILE]
//
// pick walks GOROOT/src and draws a sample of the examples that can run as a program of their own
// (see the list file's header for what it leaves out, and why). run executes every listed example
// in a fresh session per mode:
//
//	whole  the program pasted into one cell: package main, the test file's imports, its other
//	       top-level declarations, and the example's body as func main
//	bare   the same without its package clause
//	cells  as a notebook user writes it: a cell with the imports, one cell per declaration (each
//	       after what it uses), then the body as top-level statements
//
// and classifies each run: exact (stdout is the // Output: text, both trimmed as go test trims
// them), lines (the text but for the file and line log.Lshortfile writes: cell:N in a cell),
// error (a cell failed), differs (no error, other output: the worst case), timeout. It is a
// measurement: it exits 0 whatever the kernel does.
//
// testpick and testrun do the same for the second corpus, the // run programs of GOROOT/test,
// each pasted whole into one cell (testdir.go):
//
//	go run ./kernel/internal/excorpus testpick [-dirs .,ken,chan,interface,fixedbugs,typeparam] > testdata/gotests.txt
//	go run ./kernel/internal/excorpus testrun [-list testdata/gotests.txt] [-out FILE]
//
// modrun does the same for the Examples of real modules fetched through GOPROXY (modules.go).
//
// The kernel runs in a worker process (this command again, with EXCORPUS_WORKER=1), because
// session.New takes over the process's fds 1 and 2 and an interpreted program can crash its
// process; the command's own output is never captured.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

func main() {
	if os.Getenv(workerEnv) == "1" {
		workerMain()
		return
	}
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "pick":
		pickMain(os.Args[2:])
	case "run":
		runMain(os.Args[2:])
	case "testpick":
		testPickMain(os.Args[2:])
	case "testrun":
		testRunMain(os.Args[2:])
	case "modrun":
		modRunMain(os.Args[2:])
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage:
  excorpus pick [-n 400] [-seed 1] [-root GOROOT/src] > testdata/examples.txt
  excorpus run [-list testdata/examples.txt] [-timeout 10s] [-modes whole,bare,cells] [-v] [-out FILE]
  excorpus testpick [-root GOROOT/test] [-dirs .,ken,chan,interface,fixedbugs,typeparam] > testdata/gotests.txt
  excorpus testrun [-list testdata/gotests.txt] [-timeout 10s] [-v] [-out FILE]
  excorpus modrun [-modules path[@version],…] [-timeout 20s] [-modes whole,cells] [-v] [-out FILE]`)
	os.Exit(2)
}

func goSrc() string { return filepath.Join(runtime.GOROOT(), "src") }

func pickMain(args []string) {
	fs := flag.NewFlagSet("pick", flag.ExitOnError)
	n := fs.Int("n", 400, "number of examples to draw")
	seed := fs.Uint64("seed", 1, "seed of the PCG generator")
	root := fs.String("root", goSrc(), "the Go distribution's src directory")
	fs.Parse(args)
	c, err := walkExamples(*root, true)
	if err != nil {
		fmt.Fprintln(os.Stderr, "excorpus:", err)
		os.Exit(1)
	}
	picked := draw(c.eligible, *n, *seed)
	if err := writeList(os.Stdout, c, picked, *n, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "excorpus:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "excorpus: %d examples with output, %d eligible, %d drawn\n", c.withOutput, len(c.eligible), len(picked))
	for _, r := range sortedReasons(c.excluded) {
		fmt.Fprintf(os.Stderr, "  excluded %4d  %s", c.excluded[r], r)
		if e := c.firstErr[r]; e != "" {
			fmt.Fprintf(os.Stderr, " (first: %s)", e)
		}
		fmt.Fprintln(os.Stderr)
	}
}

func runMain(args []string) {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	list := fs.String("list", "testdata/examples.txt", "the list of examples (made by pick)")
	timeout := fs.Duration("timeout", 10*time.Second, "time limit of one example's cells, per mode")
	modes := fs.String("modes", "whole,bare,cells", "modes to run, comma-separated: whole, bare, cells")
	verbose := fs.Bool("v", false, "print the program, want and got of every differs case, and progress")
	out := fs.String("out", "", "write the report to this file instead of standard output")
	root := fs.String("root", goSrc(), "the Go distribution's src directory")
	fs.Parse(args)

	entries, header, err := readList(*list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "excorpus:", err)
		os.Exit(1)
	}
	var ms []string
	for _, m := range strings.Split(*modes, ",") {
		switch m = strings.TrimSpace(m); m {
		case "whole", "bare", "cells":
			ms = append(ms, m)
		default:
			fmt.Fprintf(os.Stderr, "excorpus: unknown mode %q\n", m)
			os.Exit(2)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "excorpus:", err)
		os.Exit(1)
	}
	r := newRunner(exe)
	defer r.stop(false)

	rep := &report{list: *list, root: *root, timeout: *timeout, modes: ms, header: header, verbose: *verbose}
	start := time.Now()
	for i, e := range entries {
		res := runEntry(r, *root, e, ms, *timeout)
		rep.add(res)
		if *verbose {
			fmt.Fprintf(os.Stderr, "[%d/%d] %s: %s\n", i+1, len(entries), e, res.summary())
		} else if (i+1)%50 == 0 || i+1 == len(entries) {
			fmt.Fprintf(os.Stderr, "excorpus: %d/%d examples run (%s)\n", i+1, len(entries), time.Since(start).Round(time.Second))
		}
	}
	rep.elapsed = time.Since(start)
	rep.workers = r.starts

	w := os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "excorpus:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	rep.write(w)
	if *out != "" {
		fmt.Fprintf(os.Stderr, "excorpus: report in %s\n", *out)
	}
}
