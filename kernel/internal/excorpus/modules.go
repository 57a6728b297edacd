package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/gptnotes/gptnotes/kernel/modules"
)

// modRunMain runs the Example functions of real modules through the kernel, each module
// fetched through GOPROXY by kernel/modules (as a cell's import fetches it), and compares each
// with its // Output: comment and with what `go test -run Example` says of it in a copy of the
// module:
//
//	go run ./kernel/internal/excorpus modrun [-modules path[@version],…] [-out FILE]
//
// The worker runs each example in the module's directory in the module cache, so that the
// module's go.mod (found above it) pins its requirements, as a notebook beside a go.mod would.
func modRunMain(args []string) {
	fs := flag.NewFlagSet("modrun", flag.ExitOnError)
	list := fs.String("modules", defaultModules, "modules to try, comma-separated, path or path@version (default: the newest release)")
	timeout := fs.Duration("timeout", 20*time.Second, "time limit of one example's cells, per mode")
	modes := fs.String("modes", "whole,cells", "modes to run, comma-separated: whole, bare, cells")
	out := fs.String("out", "", "write the report to this file instead of standard output")
	verbose := fs.Bool("v", false, "print every example's outcome")
	fs.Parse(args)

	env, err := modules.EnvFromOS()
	check(err)
	tmp, err := os.MkdirTemp("", "excorpus-modrun")
	check(err)
	defer os.RemoveAll(tmp)
	res, err := modules.New(env, tmp, func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) })
	check(err)
	exe, err := os.Executable()
	check(err)
	r := newRunner(exe)
	defer r.stop(false)

	var rows []moduleRow
	for _, spec := range strings.Split(*list, ",") {
		modPath, version, _ := strings.Cut(strings.TrimSpace(spec), "@")
		row := moduleRow{Path: modPath, Version: version}
		if row.Version == "" {
			row.Version, err = res.Latest(modPath)
		}
		var dir string
		if err == nil {
			dir, err = res.Module(modPath, row.Version)
		}
		if err != nil {
			row.Err = err.Error()
			rows = append(rows, row)
			continue
		}
		c, err := walkExamples(dir, false)
		check(err)
		row.WithOutput, row.Excluded = c.withOutput, c.excluded
		work, err := writableCopy(dir, modPath)
		check(err)
		row.GoTest = goTestExamples(work, c.eligible)
		row.Mains = runMains(r, dir, work, *timeout)
		os.RemoveAll(work)
		for _, e := range c.eligible {
			o := runEntry(r, dir, e, strings.Split(*modes, ","), *timeout)
			row.Outcomes = append(row.Outcomes, o)
			if *verbose {
				fmt.Fprintf(os.Stderr, "%s %s: %s\n", modPath, e, o.summary())
			}
		}
		rows = append(rows, row)
	}
	w := io.Writer(os.Stdout)
	if *out != "" {
		f, err := os.Create(*out)
		check(err)
		defer f.Close()
		w = f
	}
	writeModuleReport(w, rows, *modes)
}

// defaultModules are the modules `make modules` tries.
const defaultModules = "github.com/google/go-cmp,github.com/sergi/go-diff,github.com/dustin/go-humanize,github.com/emirpasic/gods,github.com/montanaflynn/stats,github.com/rivo/uniseg,github.com/pkg/errors,github.com/bits-and-blooms/bitset"

// moduleRow is one module's results.
type moduleRow struct {
	Path, Version string
	Err           string // the module could not be fetched
	WithOutput    int
	Excluded      map[string]int
	GoTest        map[string]bool // "file name" → go test passed it
	Outcomes      []outcome
	Mains         []mainOutcome // the module's example commands (package main), against go run
}

// mainOutcome is one main package of the module (gods keeps its examples as commands in
// examples/): its one file pasted whole into a cell, against what go run prints.
type mainOutcome struct {
	Dir   string // relative to the module
	Class string
	Msg   string
}

// runMains runs each single-file main package of the module (dir, and its writable copy work
// for go run) through the kernel; a command go run cannot run, or that reads its arguments or
// standard input, is left out.
func runMains(r *runner, dir, work string, limit time.Duration) []mainOutcome {
	var out []mainOutcome
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if base := d.Name(); p != dir && (base == "testdata" || base == "vendor" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
			return filepath.SkipDir
		}
		file, src := soleMain(p)
		if file == "" || strings.Contains(src, "os.Args") || strings.Contains(src, "os.Stdin") {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		cmd := exec.Command("go", "run", ".")
		cmd.Dir = filepath.Join(work, rel)
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		want, err := cmd.Output()
		if err != nil {
			return nil
		}
		res := r.do(run{Dir: p, Cells: []string{src}, Timeout: limit})
		m := classify(res, string(want))
		out = append(out, mainOutcome{Dir: filepath.ToSlash(rel), Class: m.Class, Msg: m.Msg})
		return nil
	})
	return out
}

// soleMain is the file of dir's main package when it has exactly one non-test Go file.
func soleMain(dir string) (file, src string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			if file != "" {
				return "", ""
			}
			file = n
		}
	}
	if file == "" {
		return "", ""
	}
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil || !regexp.MustCompile(`(?m)^package main\b`).Match(data) || !strings.Contains(string(data), "func main()") {
		return "", ""
	}
	return file, string(data)
}

// writableCopy copies the module tree dir (read-only in the module cache) for the go command.
func writableCopy(dir, modPath string) (string, error) {
	tmp, err := os.MkdirTemp("", "excorpus-gotest")
	if err != nil {
		return "", err
	}
	if err := exec.Command("cp", "-r", dir+"/.", tmp).Run(); err != nil {
		return "", err
	}
	if err := exec.Command("chmod", "-R", "u+w", tmp).Run(); err != nil {
		return "", err
	}
	// A module from before go.mod (github.com/pkg/errors v0.9.1) gets the one the go command
	// assumes for it (go 1.16), so that go test can run in the copy.
	gomod := filepath.Join(tmp, "go.mod")
	if _, err := os.Stat(gomod); os.IsNotExist(err) {
		return tmp, os.WriteFile(gomod, []byte("module "+modPath+"\n\ngo 1.16\n"), 0o644)
	}
	return tmp, nil
}

// verdict is the module's line in the table: exact when every example ran exactly (or but for
// log's file:line), else error or differ, with the first reason.
func (m moduleRow) verdict(mode string) (class, why string) {
	if m.Err != "" {
		return failed, m.Err
	}
	counts := map[string]int{}
	n := len(m.Outcomes)
	if mode == "whole" {
		n += len(m.Mains)
		for _, mo := range m.Mains {
			counts[mo.Class]++
			if why == "" && mo.Class != exact && mo.Class != lines {
				why = mo.Dir + ": " + mo.Class + " " + mo.Msg
			}
		}
	}
	for _, o := range m.Outcomes {
		mo, ok := o.Modes[mode]
		if !ok {
			continue
		}
		counts[mo.Class]++
		if why == "" && mo.Class != exact && mo.Class != lines {
			why = o.Entry.Name + ": " + mo.Msg
			if mo.Class == differs {
				why = o.Entry.Name + ": output differs"
			}
		}
	}
	switch {
	case n == 0:
		return "none", "no Example function with output, no example command"
	case counts[failed]+counts[timeout] > 0:
		class = "error"
	case counts[differs] > 0:
		class = "differ"
	default:
		class = "exact"
	}
	return class, fmt.Sprintf("%d/%d exact; %s", counts[exact]+counts[lines], n, why)
}

// writeModuleReport writes the table (Markdown) and every example's outcome.
func writeModuleReport(w io.Writer, rows []moduleRow, modes string) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	ms := strings.Split(modes, ",")
	fmt.Fprintf(bw, "| module | version | examples (go test passes) + commands | %s |\n|---|---|---|%s\n", strings.Join(ms, " | "), strings.Repeat("---|", len(ms)))
	for _, m := range rows {
		pass := 0
		for _, ok := range m.GoTest {
			if ok {
				pass++
			}
		}
		fmt.Fprintf(bw, "| %s | %s | %d (%d) + %d |", m.Path, m.Version, len(m.Outcomes), pass, len(m.Mains))
		for _, mode := range ms {
			class, why := m.verdict(mode)
			fmt.Fprintf(bw, " %s: %s |", class, strings.ReplaceAll(why, "|", `\|`))
		}
		fmt.Fprintln(bw)
	}
	fmt.Fprintln(bw)
	for _, m := range rows {
		fmt.Fprintf(bw, "## %s %s\n", m.Path, m.Version)
		for _, r := range sortedReasons(m.Excluded) {
			fmt.Fprintf(bw, "excluded: %d: %s\n", m.Excluded[r], r)
		}
		for _, o := range m.Outcomes {
			fmt.Fprintf(bw, "%s (go test pass: %v): %s\n", o.Entry, m.GoTest[o.Entry.String()], o.summary())
		}
		for _, mo := range m.Mains {
			fmt.Fprintf(bw, "command %s (against go run): whole %s %s\n", mo.Dir, mo.Class, mo.Msg)
		}
	}
}

var goTestRE = regexp.MustCompile(`^--- (PASS|FAIL): (Example\w*)`)

// goTestExamples runs `go test -run Example -v` in tmp, a writable copy of the module, for each
// package with examples in es, and reports which passed ("file name" keys, as entry.String).
func goTestExamples(tmp string, es []entry) map[string]bool {
	out := map[string]bool{}
	byDir := map[string][]entry{}
	for _, e := range es {
		byDir[pathDir(e.File)] = append(byDir[pathDir(e.File)], e)
	}
	var dirs []string
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		cmd := exec.Command("go", "test", "-count=1", "-run", "^Example", "-v", "./"+d)
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		text, _ := cmd.CombinedOutput()
		passed := map[string]bool{}
		for _, line := range strings.Split(string(text), "\n") {
			if m := goTestRE.FindStringSubmatch(line); m != nil {
				passed[m[2]] = m[1] == "PASS"
			}
		}
		for _, e := range byDir[d] {
			out[e.String()] = passed[e.Name]
		}
	}
	return out
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "excorpus:", err)
		os.Exit(1)
	}
}
