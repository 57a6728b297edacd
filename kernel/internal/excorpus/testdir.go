package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"go/build/constraint"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The second corpus: GOROOT/test, the Go distribution's tests of its compiler and runtime. A
// file there whose first line is "// run" is a program of its own; the Go test driver
// (cmd/internal/testdir) runs it with `go run` and passes it when it exits with status 0 and its
// output, stdout and stderr together, is the text of the .out file beside it, or nothing when
// there is none. Most print nothing and panic when a check fails. The kernel runs each one pasted
// whole into one cell, package clause included:
//
//	go run ./kernel/internal/excorpus testpick [-dirs .,ken,chan,interface,fixedbugs,typeparam] > testdata/gotests.txt
//	go run ./kernel/internal/excorpus testrun [-list testdata/gotests.txt] [-timeout 10s] [-out FILE]
//
// and classifies each run as the Example corpus does: exact, error (the cell failed: a
// compile error, a refusal, a panic of the program's own checks), differs (no error, other
// output), timeout.

func goTest() string { return filepath.Join(runtime.GOROOT(), "test") }

// Reasons testpick leaves a // run program out, from the source alone.
const (
	exclRunFlags    = "run with flags or arguments (// run -race, // run -gcflags=…)"
	exclTestBuild   = "build constraints exclude the file on this GOOS/GOARCH"
	exclNotRunnable = "not a // run program"
)

// testPick lists the // run programs under root in dirs ("." for root itself), sorted, and
// counts what it leaves out.
func testPick(root string, dirs []string) (files []string, excluded map[string]int, err error) {
	excluded = map[string]int{}
	for _, d := range dirs {
		dir := filepath.Join(root, d)
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, nil, err
		}
		for _, de := range entries {
			if de.IsDir() || !strings.HasSuffix(de.Name(), ".go") {
				continue
			}
			rel := filepath.ToSlash(filepath.Join(d, de.Name()))
			reason, err := testRunnable(filepath.Join(dir, de.Name()))
			if err != nil {
				return nil, nil, err
			}
			switch reason {
			case "":
				files = append(files, rel)
			case exclNotRunnable:
			default:
				excluded[reason]++
			}
		}
	}
	sort.Strings(files)
	return files, excluded, nil
}

// testRunnable says why the program at path is not one the corpus runs, "" when it is.
func testRunnable(path string) (string, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	first, _, _ := strings.Cut(string(src), "\n")
	first = strings.TrimSpace(first)
	switch {
	case first == "// run":
	case strings.HasPrefix(first, "// run "):
		return exclRunFlags, nil
	default:
		return exclNotRunnable, nil
	}
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "package ") {
			break
		}
		if constraint.IsGoBuild(line) {
			expr, err := constraint.Parse(line)
			if err != nil || !expr.Eval(buildTag) {
				return exclTestBuild, nil
			}
		}
	}
	return "", nil
}

// buildTag reports whether tag holds for `go run` on this machine (gc, its GOOS and GOARCH,
// unix, every go1.N release tag of its version).
func buildTag(tag string) bool {
	switch tag {
	case runtime.GOOS, runtime.GOARCH, "gc":
		return true
	case "unix":
		return runtime.GOOS != "windows" && runtime.GOOS != "plan9" && runtime.GOOS != "js" && runtime.GOOS != "wasip1"
	}
	if v, ok := strings.CutPrefix(tag, "go1."); ok {
		n, err := strconv.Atoi(v)
		return err == nil && strings.HasPrefix(runtime.Version(), "go1.") && n <= goMinor()
	}
	return false
}

func goMinor() int {
	v := strings.TrimPrefix(runtime.Version(), "go1.")
	v, _, _ = strings.Cut(v, ".")
	n, _ := strconv.Atoi(v)
	return n
}

func testPickMain(args []string) {
	fset := flag.NewFlagSet("testpick", flag.ExitOnError)
	root := fset.String("root", goTest(), "the Go distribution's test directory")
	dirs := fset.String("dirs", ".,ken,chan,interface,fixedbugs,typeparam", "directories of root to list, comma-separated")
	fset.Parse(args)
	ds := strings.Split(*dirs, ",")
	files, excluded, err := testPick(*root, ds)
	if err != nil {
		fmt.Fprintln(os.Stderr, "excorpus:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(w, "# The // run programs of the Go distribution's test directory (GOROOT/test) that\n")
	fmt.Fprintf(w, "# kernel/internal/excorpus runs through the kernel, each pasted whole into one cell, and\n")
	fmt.Fprintf(w, "# compares with its .out file (no output when there is none). Made by:\n")
	fmt.Fprintf(w, "#   go run ./kernel/internal/excorpus testpick -dirs %s > testdata/gotests.txt\n", *dirs)
	fmt.Fprintf(w, "# with %s %s/%s: %d programs.\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, len(files))
	for _, r := range sortedReasons(excluded) {
		fmt.Fprintf(w, "# excluded: %d: %s\n", excluded[r], r)
	}
	for _, f := range files {
		fmt.Fprintln(w, f)
	}
	w.Flush()
}

// readTestList reads a list testpick made: its files and header lines.
func readTestList(path string) (files, header []string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "#"):
			header = append(header, strings.TrimSpace(strings.TrimPrefix(line, "#")))
		default:
			files = append(files, line)
		}
	}
	return files, header, nil
}

// A testOutcome is one program's run.
type testOutcome struct {
	File  string
	Class string
	Msg   string // the error's first line
	Res   runResult
	Want  string
}

// runTest runs the program file (relative to root) in one cell and classifies the run as the
// test driver would judge `go run`: exit status 0 (os.Exit(0) included) and stdout and stderr,
// in the order written, equal to the .out file's text.
func runTest(r *runner, root, file string, limit time.Duration) testOutcome {
	o := testOutcome{File: file}
	path := filepath.Join(root, filepath.FromSlash(file))
	src, err := os.ReadFile(path)
	if err != nil {
		o.Class, o.Msg = failed, "Harness: "+err.Error()
		return o
	}
	if want, err := os.ReadFile(strings.TrimSuffix(path, ".go") + ".out"); err == nil {
		o.Want = string(want)
	} else if !errors.Is(err, fs.ErrNotExist) {
		o.Class, o.Msg = failed, "Harness: "+err.Error()
		return o
	}
	// In GOROOT/test, as Go's test driver runs a // run program (fixedbugs/issue9862_run.go
	// names fixedbugs/issue9862.go from there).
	res := r.do(run{Dir: root, Cells: []string{string(src)}, Timeout: limit})
	o.Res = res
	exitedZero := res.ErrName == "Exit" && strings.Contains(res.Err, "os.Exit(0)")
	switch {
	case res.TimedOut:
		o.Class = timeout
	case res.ErrName != "" && !exitedZero:
		o.Class, o.Msg = failed, res.ErrName+": "+firstLine(res.Err)
	case res.Output == o.Want:
		o.Class = exact
	default:
		o.Class = differs
	}
	return o
}

func testRunMain(args []string) {
	fset := flag.NewFlagSet("testrun", flag.ExitOnError)
	list := fset.String("list", "testdata/gotests.txt", "the list of programs (made by testpick)")
	root := fset.String("root", goTest(), "the Go distribution's test directory")
	timeout := fset.Duration("timeout", 10*time.Second, "time limit of one program")
	out := fset.String("out", "", "write the report to this file instead of standard output")
	verbose := fset.Bool("v", false, "print progress, and want and got of every differs case")
	fset.Parse(args)
	files, header, err := readTestList(*list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "excorpus:", err)
		os.Exit(1)
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "excorpus:", err)
		os.Exit(1)
	}
	r := newRunner(exe)
	defer r.stop(false)
	start := time.Now()
	var outcomes []testOutcome
	for i, f := range files {
		o := runTest(r, *root, f, *timeout)
		outcomes = append(outcomes, o)
		if *verbose {
			fmt.Fprintf(os.Stderr, "[%d/%d] %s: %s %s\n", i+1, len(files), f, o.Class, o.Msg)
		} else if (i+1)%50 == 0 || i+1 == len(files) {
			fmt.Fprintf(os.Stderr, "excorpus: %d/%d programs run (%s)\n", i+1, len(files), time.Since(start).Round(time.Second))
		}
	}
	w := io.Writer(os.Stdout)
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "excorpus:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	writeTestReport(w, *list, *root, *timeout, time.Since(start), r.starts, header, outcomes, *verbose)
	if *out != "" {
		fmt.Fprintf(os.Stderr, "excorpus: report in %s\n", *out)
	}
}

// writeTestReport writes the table of classes, the differs and timeouts, the most frequent
// errors and every program's class.
func writeTestReport(out io.Writer, list, root string, limit, elapsed time.Duration, workers int, header []string, outcomes []testOutcome, verbose bool) {
	w := bufio.NewWriter(out)
	defer w.Flush()
	count := map[string]int{}
	for _, o := range outcomes {
		count[o.Class]++
	}
	fmt.Fprintf(w, "excorpus testrun: the // run programs of GOROOT/test through the kernel, each pasted whole into one cell\n")
	fmt.Fprintf(w, "list %s (%d programs), GOROOT/test %s, timeout %s per program, %s, %d worker processes\n",
		list, len(outcomes), root, limit, elapsed.Round(time.Second), workers)
	for _, h := range header {
		if strings.HasPrefix(h, "excluded: ") || strings.HasPrefix(h, "with ") {
			fmt.Fprintf(w, "  %s\n", h)
		}
	}
	fmt.Fprintln(w)
	var parts []string
	for _, c := range classes {
		parts = append(parts, fmt.Sprintf("%s %d", c, count[c]))
	}
	fmt.Fprintf(w, "Classes: %s (of %d)\n\n", strings.Join(parts, ", "), len(outcomes))

	fmt.Fprintf(w, "Differs (no error, but the output is not the .out text):\n")
	nd := 0
	for _, o := range outcomes {
		if o.Class != differs {
			continue
		}
		nd++
		fmt.Fprintf(w, "  %s\n", o.File)
		if verbose {
			fmt.Fprintf(w, "    want: %q\n    got:  %q\n", o.Want, o.Res.Output)
		}
	}
	if nd == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	fmt.Fprintf(w, "\nTimeouts:\n")
	nt := 0
	for _, o := range outcomes {
		if o.Class == timeout {
			nt++
			fmt.Fprintf(w, "  %s\n", o.File)
		}
	}
	if nt == 0 {
		fmt.Fprintf(w, "  none\n")
	}

	errs := map[string]int{}
	first := map[string]string{}
	for _, o := range outcomes {
		if o.Class != failed {
			continue
		}
		k := normalize(o.Msg)
		if errs[k] == 0 {
			first[k] = o.File
		}
		errs[k]++
	}
	keys := sortedReasons(errs)
	fmt.Fprintf(w, "\nTop 20 errors (positions removed; %d distinct messages):\n", len(keys))
	for i, k := range keys {
		if i == 20 {
			break
		}
		fmt.Fprintf(w, "  %4d  %s\n        (%s)\n", errs[k], k, first[k])
	}
	fmt.Fprintf(w, "\nPer program:\n")
	for _, o := range outcomes {
		fmt.Fprintf(w, "  %s  %s", o.File, o.Class)
		if o.Msg != "" {
			fmt.Fprintf(w, "  %s", o.Msg)
		}
		fmt.Fprintln(w)
	}
}
