package main

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Classes of a run.
const (
	exact   = "exact"   // stdout is the // Output: text
	lines   = "lines"   // the text but for the source lines a logger writes: cell:N where Go writes file.go:N
	failed  = "error"   // a cell failed (or the worker crashed)
	differs = "differs" // no error, but other output
	timeout = "timeout" // the cells did not end in time
)

var classes = []string{exact, lines, failed, differs, timeout}

// An outcome is one example's results in every mode, or why it was not run.
type outcome struct {
	Entry    entry
	Program  *program
	Excluded string // reason, "" when it ran
	Detail   string // for an exclusion: the missing package, the error
	Modes    map[string]modeOutcome
}

type modeOutcome struct {
	Class string
	Msg   string // the error's first line, normalized positions kept
	Res   runResult
}

// Exclusion reasons decided at run time.
const (
	exclMissing  = "the kernel lacks an imported package"
	exclNotFound = "not found in this GOROOT"
	exclHarness  = "the harness could not build the program"
)

// runEntry builds and runs one example in every mode.
func runEntry(r *runner, root string, e entry, modes []string, limit time.Duration) outcome {
	o := outcome{Entry: e, Modes: map[string]modeOutcome{}}
	path := filepath.Join(root, filepath.FromSlash(e.File))
	fset, f, src, err := parseTestFile(path)
	if err != nil {
		o.Excluded, o.Detail = exclNotFound, err.Error()
		return o
	}
	p, err := buildProgram(fset, f, src, e.File, filepath.Dir(path), e.Name)
	if err != nil {
		o.Excluded, o.Detail = exclNotFound, err.Error()
		return o
	}
	o.Program = p
	if p.Imports != "" {
		// The imports alone, in a session of their own: a package the kernel does not carry
		// excludes the example (the kernel says which).
		res := r.do(run{Dir: p.Dir, Cells: []string{p.Imports}, Timeout: limit})
		if res.ErrName == "ImportError" {
			o.Excluded, o.Detail = exclMissing, missingPackage(res.Err)
			return o
		}
	}
	for _, m := range modes {
		res := r.do(run{Dir: p.Dir, Cells: p.modeCells(m), Timeout: limit})
		o.Modes[m] = classify(res, p.Want)
	}
	return o
}

var missingRE = regexp.MustCompile(`package "([^"]+)" is not available`)

func missingPackage(err string) string {
	if m := missingRE.FindStringSubmatch(err); m != nil {
		return m[1]
	}
	return firstLine(err)
}

// classify compares a run with the expected output, as go test does: stdout only, both trimmed
// of leading and trailing space.
func classify(res runResult, want string) modeOutcome {
	m := modeOutcome{Res: res}
	switch {
	case res.TimedOut:
		m.Class = timeout
	case res.ErrName != "":
		m.Class = failed
		m.Msg = res.ErrName + ": " + firstLine(res.Err)
	case strings.TrimSpace(res.Stdout) == strings.TrimSpace(want):
		m.Class = exact
	case sameButSourceLines(res.Stdout, want):
		m.Class = lines
	default:
		m.Class = differs
	}
	return m
}

// sourceLineRE is the file and line log.Lshortfile writes: cell:19 in a cell, where a program
// writes example_test.go:19 (the kernel names a cell's positions cell:LINE, in the cell's lines).
var sourceLineRE = regexp.MustCompile(`\b(cell|[\w.-]+\.go):\d+: `)

// sameButSourceLines reports whether got is want once the kernel's cell:N and the file.go:N of
// Go's output are both taken out: what log.Lshortfile writes cannot be the same in a cell.
func sameButSourceLines(got, want string) bool {
	if !strings.Contains(got, "cell:") {
		return false
	}
	strip := func(s string) string { return strings.TrimSpace(sourceLineRE.ReplaceAllString(s, "FILE:LINE: ")) }
	return strip(got) == strip(want)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func (o outcome) summary() string {
	if o.Excluded != "" {
		return "excluded: " + o.Excluded + " (" + o.Detail + ")"
	}
	var parts []string
	for _, m := range sortedModes(o.Modes) {
		mo := o.Modes[m]
		s := m + " " + mo.Class
		if mo.Msg != "" {
			s += " (" + mo.Msg + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func sortedModes(m map[string]modeOutcome) []string {
	var out []string
	for _, k := range []string{"whole", "bare", "cells"} {
		if _, ok := m[k]; ok {
			out = append(out, k)
		}
	}
	return out
}

// A report gathers the outcomes of a run of the list.
type report struct {
	list     string
	root     string
	timeout  time.Duration
	modes    []string
	header   []string
	verbose  bool
	elapsed  time.Duration
	workers  int
	outcomes []outcome
}

func (r *report) add(o outcome) { r.outcomes = append(r.outcomes, o) }

var (
	filePosRE = regexp.MustCompile(`(cell|[\w./-]+\.go):\d+(:\d+)?:?\s*`) // cell:3:5: x.go:12:
	barePosRE = regexp.MustCompile(`(^|: )\d+:\d+: `)                     // 55:22: (kernel's slices source)
	hexRE     = regexp.MustCompile(`0x[0-9a-f]+`)
	// Names that split one kind of error into many: the symbol a package lacks, the generic
	// function the kernel refuses.
	symbolRE      = regexp.MustCompile(`(has no symbol|undefined selector:?) ([\w/]+\.)?\w+`)
	unsupportedRE = regexp.MustCompile(`^Unsupported: (\w+)\.\w+ \(`)
)

// normalize makes error messages that differ only in positions, addresses, or the name of a
// missing symbol count as one (the per-example lines keep the full first line).
func normalize(msg string) string {
	msg = filePosRE.ReplaceAllString(msg, "")
	msg = barePosRE.ReplaceAllString(msg, "$1")
	msg = strings.ReplaceAll(msg, ": cell: ", ": ")
	msg = hexRE.ReplaceAllString(msg, "0x…")
	msg = symbolRE.ReplaceAllString(msg, "$1 $2…")
	msg = unsupportedRE.ReplaceAllString(msg, "Unsupported: $1.… (")
	if r := []rune(msg); len(r) > 160 {
		msg = string(r[:157]) + "…"
	}
	return msg
}

func (r *report) write(out io.Writer) {
	w := bufio.NewWriter(out)
	defer w.Flush()
	ran := 0
	excl := map[string]int{}
	missing := map[string]int{}
	count := map[string]map[string]int{} // mode → class → runs
	for _, m := range r.modes {
		count[m] = map[string]int{}
	}
	for _, o := range r.outcomes {
		if o.Excluded != "" {
			excl[o.Excluded]++
			if o.Excluded == exclMissing {
				missing[o.Detail]++
			}
			continue
		}
		ran++
		for m, mo := range o.Modes {
			count[m][mo.Class]++
		}
	}

	fmt.Fprintf(w, "excorpus: the Go distribution's Example functions run through the kernel\n")
	fmt.Fprintf(w, "list %s (%d examples), GOROOT/src %s, timeout %s per example and mode, %s, %d worker processes\n",
		r.list, len(r.outcomes), r.root, r.timeout, r.elapsed.Round(time.Second), r.workers)
	fmt.Fprintf(w, "modes: whole = the program in one cell (with package main); bare = the same without the\n")
	fmt.Fprintf(w, "package clause; cells = imports, one cell per declaration, the body as top-level statements\n\n")

	fmt.Fprintf(w, "Left out when the list was made (from its header):\n")
	any := false
	for _, h := range r.header {
		if rest, ok := strings.CutPrefix(h, "excluded: "); ok {
			fmt.Fprintf(w, "  %s\n", rest)
			any = true
		}
	}
	if !any {
		fmt.Fprintf(w, "  (the header says nothing)\n")
	}
	for _, h := range r.header {
		if strings.HasPrefix(h, "Example functions with") || strings.HasPrefix(h, "Eligible") {
			fmt.Fprintf(w, "  %s\n", h)
		}
	}
	fmt.Fprintf(w, "Left out at run time:\n")
	if len(excl) == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	for _, reason := range sortedReasons(excl) {
		fmt.Fprintf(w, "  %d: %s", excl[reason], reason)
		if reason == exclMissing {
			var ps []string
			for _, p := range sortedReasons(missing) {
				ps = append(ps, fmt.Sprintf("%s %d", p, missing[p]))
			}
			fmt.Fprintf(w, " (%s)", strings.Join(ps, ", "))
		}
		fmt.Fprintln(w)
	}
	for _, o := range r.outcomes {
		if o.Excluded != "" && o.Excluded != exclMissing {
			fmt.Fprintf(w, "    %s: %s\n", o.Entry, o.Detail)
		}
	}
	fmt.Fprintf(w, "Run: %d examples in %d modes\n\n", ran, len(r.modes))

	fmt.Fprintf(w, "Per mode:\n")
	for _, m := range r.modes {
		var parts []string
		for _, c := range classes {
			parts = append(parts, fmt.Sprintf("%s %d", c, count[m][c]))
		}
		fmt.Fprintf(w, "  %-5s  %s\n", m, strings.Join(parts, ", "))
	}
	fmt.Fprintln(w)

	// Differs: the worst case, each one listed.
	fmt.Fprintf(w, "Differs (no error, but stdout is not the // Output: text):\n")
	nd := 0
	for _, o := range r.outcomes {
		for _, m := range sortedModes(o.Modes) {
			mo := o.Modes[m]
			if mo.Class != differs {
				continue
			}
			nd++
			fmt.Fprintf(w, "  %-5s  %s\n", m, o.Entry)
			if r.verbose {
				writeDiffers(w, o, m, mo)
			}
		}
	}
	if nd == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	fmt.Fprintln(w)

	fmt.Fprintf(w, "Timeouts:\n")
	nt := 0
	for _, o := range r.outcomes {
		for _, m := range sortedModes(o.Modes) {
			if mo := o.Modes[m]; mo.Class == timeout {
				nt++
				fmt.Fprintf(w, "  %-5s  %s (%s)\n", m, o.Entry, firstLine(mo.Res.Err))
			}
		}
	}
	if nt == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	fmt.Fprintln(w)

	// The most frequent errors, over all modes, with their count in each.
	type errCount struct {
		msg     string
		total   int
		byMode  map[string]int
		example string
	}
	errs := map[string]*errCount{}
	for _, o := range r.outcomes {
		for m, mo := range o.Modes {
			if mo.Class != failed {
				continue
			}
			k := normalize(mo.Msg)
			ec := errs[k]
			if ec == nil {
				ec = &errCount{msg: k, byMode: map[string]int{}, example: o.Entry.String()}
				errs[k] = ec
			}
			ec.total++
			ec.byMode[m]++
		}
	}
	var ecs []*errCount
	for _, ec := range errs {
		ecs = append(ecs, ec)
	}
	sort.Slice(ecs, func(i, j int) bool {
		if ecs[i].total != ecs[j].total {
			return ecs[i].total > ecs[j].total
		}
		return ecs[i].msg < ecs[j].msg
	})
	fmt.Fprintf(w, "Top 15 errors (positions removed; %d distinct messages), runs per mode:\n", len(ecs))
	fmt.Fprintf(w, "  %5s", "all")
	for _, m := range r.modes {
		fmt.Fprintf(w, " %5s", m)
	}
	fmt.Fprintf(w, "  message (first example)\n")
	for i, ec := range ecs {
		if i == 15 {
			break
		}
		fmt.Fprintf(w, "  %5d", ec.total)
		for _, m := range r.modes {
			fmt.Fprintf(w, " %5d", ec.byMode[m])
		}
		fmt.Fprintf(w, "  %s\n  %*s(%s)\n", ec.msg, 6*(len(r.modes)+1)+2, "", ec.example)
	}
	fmt.Fprintln(w)

	fmt.Fprintf(w, "Per example:\n")
	for _, o := range r.outcomes {
		if o.Excluded != "" {
			fmt.Fprintf(w, "  %s  left out: %s (%s)\n", o.Entry, o.Excluded, o.Detail)
			continue
		}
		var parts []string
		for _, m := range sortedModes(o.Modes) {
			parts = append(parts, m+"="+o.Modes[m].Class)
		}
		fmt.Fprintf(w, "  %s  %s\n", o.Entry, strings.Join(parts, " "))
	}
	fmt.Fprintln(w)

	// The closing table.
	fmt.Fprintf(w, "Summary (%d examples listed, %d run, %d left out at run time):\n", len(r.outcomes), ran, len(r.outcomes)-ran)
	fmt.Fprintf(w, "  %-6s", "mode")
	for _, c := range classes {
		fmt.Fprintf(w, " %8s", c)
	}
	fmt.Fprintf(w, " %8s\n", "runs")
	for _, m := range r.modes {
		fmt.Fprintf(w, "  %-6s", m)
		total := 0
		for _, c := range classes {
			fmt.Fprintf(w, " %8d", count[m][c])
			total += count[m][c]
		}
		fmt.Fprintf(w, " %8d\n", total)
	}
}

// writeDiffers shows a differs case: the program as the mode pasted it, want and got.
func writeDiffers(w io.Writer, o outcome, mode string, mo modeOutcome) {
	indent := func(s string) string {
		return "      | " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n      | ") + "\n"
	}
	fmt.Fprintf(w, "    program (%s; cells separated by // ---):\n", mode)
	fmt.Fprint(w, indent(strings.Join(o.Program.modeCells(mode), "\n// ---\n")))
	fmt.Fprintf(w, "    want:\n%s", indent(strings.TrimSpace(o.Program.Want)))
	fmt.Fprintf(w, "    got:\n%s", indent(strings.TrimSpace(mo.Res.Stdout)))
	if mo.Res.Stderr != "" {
		fmt.Fprintf(w, "    stderr:\n%s", indent(mo.Res.Stderr))
	}
}
