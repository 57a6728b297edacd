package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// The test binary is also the worker: the runner starts it again with EXCORPUS_WORKER=1, so the
// kernel's capture of fds 1 and 2 never touches the test's own output.
func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" {
		workerMain()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const listFile = "../../../testdata/examples.txt"

func testRunner(t *testing.T) *runner {
	t.Helper()
	r := newRunner(os.Args[0])
	t.Cleanup(func() { r.stop(false) })
	return r
}

// load builds the program of one example of the Go distribution.
func load(t *testing.T, e entry) *program {
	t.Helper()
	path := filepath.Join(goSrc(), filepath.FromSlash(e.File))
	fset, f, src, err := parseTestFile(path)
	if err != nil {
		t.Skipf("%s: %v (a Go distribution without it)", e, err)
	}
	p, err := buildProgram(fset, f, src, e.File, filepath.Dir(path), e.Name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestList checks the committed list: made by pick, sorted, no repeats.
func TestList(t *testing.T) {
	entries, header, err := readList(listFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 15 {
		t.Fatalf("%d examples in %s, want at least 15", len(entries), listFile)
	}
	if !strings.Contains(strings.Join(header, "\n"), "excorpus pick -n") {
		t.Errorf("the header of %s does not say how it was made:\n%s", listFile, strings.Join(header, "\n"))
	}
	for i := 1; i < len(entries); i++ {
		if entries[i-1].String() >= entries[i].String() {
			t.Errorf("%s: %q before %q: not sorted, or repeated", listFile, entries[i-1], entries[i])
		}
	}
}

// TestFirstExamples runs the first 15 examples of the list in the bare mode: every run must get
// a class from the harness itself (no harness failure, no crash of the worker), an error must
// come with its message, and none may print something other than its output with no error.
func TestFirstExamples(t *testing.T) {
	entries, _, err := readList(listFile)
	if err != nil {
		t.Fatal(err)
	}
	r := testRunner(t)
	counts := map[string]int{}
	for _, e := range entries[:min(15, len(entries))] {
		o := runEntry(r, goSrc(), e, []string{"bare"}, 10*time.Second)
		if o.Excluded != "" {
			if o.Excluded == exclNotFound {
				t.Logf("%s: %s", e, o.Detail) // another Go version
				continue
			}
			t.Logf("%s left out: %s (%s)", e, o.Excluded, o.Detail)
			counts["left out"]++
			continue
		}
		mo := o.Modes["bare"]
		counts[mo.Class]++
		t.Logf("%s: %s %s", e, mo.Class, mo.Msg)
		switch {
		case mo.Res.ErrName == "Harness" || mo.Res.ErrName == "Crash":
			t.Errorf("%s: the harness failed: %s: %s", e, mo.Res.ErrName, mo.Res.Err)
		case mo.Class == failed && strings.TrimSpace(mo.Msg) == mo.Res.ErrName+":":
			t.Errorf("%s: an error without a message", e)
		case mo.Class == "":
			t.Errorf("%s: no class", e)
		case mo.Class == differs:
			t.Errorf("%s printed something other than its // Output:, with no error: %s", e, mo.Msg)
		}
	}
	t.Logf("first examples: %v", counts)
}

// silentBefore are the examples of the list that printed something other than their //
// Output:, with no error, before the kernel closed or refused what made them differ.
var silentBefore = []string{
	"encoding/xml/example_test.go ExampleEncoder", "encoding/xml/example_test.go ExampleMarshalIndent",
	"encoding/xml/example_test.go ExampleUnmarshal", "fmt/gostringer_example_test.go ExampleGoStringer",
	"log/example_test.go ExampleLogger", "log/example_test.go ExampleLogger_Output",
	"log/slog/example_log_level_test.go ExampleSetLogLoggerLevel_log",
	"log/slog/example_log_level_test.go ExampleSetLogLoggerLevel_slog",
	"log/slog/example_logvaluer_secret_test.go ExampleLogValuer_secret",
	"log/slog/example_wrap_test.go Example_wrapping", "reflect/example_test.go ExampleKind",
	"reflect/example_test.go ExampleValue_FieldByName", "runtime/example_test.go ExampleFrames",
}

// TestNoSilentDifference runs the examples that once printed something else with no error, in
// every mode: each must now print its output exactly or fail with an error.
func TestNoSilentDifference(t *testing.T) {
	r := testRunner(t)
	for _, line := range silentBefore {
		file, name, _ := strings.Cut(line, " ")
		e := entry{File: file, Name: name}
		o := runEntry(r, goSrc(), e, []string{"whole", "bare", "cells"}, 10*time.Second)
		if o.Excluded != "" {
			t.Logf("%s left out: %s (%s)", line, o.Excluded, o.Detail)
			continue
		}
		for mode, mo := range o.Modes {
			t.Logf("%s, %s: %s", line, mode, mo.Class)
			if mo.Class == differs {
				t.Errorf("%s, %s: printed something other than its // Output:, with no error", line, mode)
			}
		}
	}
}

// TestClassify runs one known-simple example for real, with its own and with a wrong expected
// output, and two made-up programs that fail and never end.
func TestClassify(t *testing.T) {
	r := testRunner(t)
	p := load(t, entry{"strings/example_test.go", "ExampleContains"})
	for _, mode := range []string{"bare", "cells"} {
		res := r.do(run{Dir: p.Dir, Cells: p.modeCells(mode), Timeout: 10 * time.Second})
		if got := classify(res, p.Want); got.Class != exact {
			t.Errorf("%s ExampleContains: %s %s\nstdout:\n%s\nwant:\n%s", mode, got.Class, got.Msg, res.Stdout, p.Want)
		}
		if got := classify(res, "true\nfalse\n"); got.Class != differs {
			t.Errorf("%s ExampleContains with a wrong expected output: %s, want differs", mode, got.Class)
		}
	}
	// Leading and trailing space does not count, as in go test.
	if got := classify(runResult{Stdout: "\n  a\nb  \n\n"}, "a\nb"); got.Class != exact {
		t.Errorf("spaces around the output: %s, want exact", got.Class)
	}
	if got := classify(runResult{Stdout: "a\n b"}, "a\nb"); got.Class != differs {
		t.Errorf("space inside the output: %s, want differs", got.Class)
	}

	res := r.do(run{Cells: []string{`import "fmt"`, `fmt.Println("before"); undefinedName`}, Timeout: 10 * time.Second})
	if got := classify(res, "before"); got.Class != failed || !strings.Contains(got.Msg, "undefinedName") || res.Cell != 1 {
		t.Errorf("undefined name: %s %q in cell %d, want error naming undefinedName in cell 1", got.Class, got.Msg, res.Cell)
	}

	start := time.Now()
	res = r.do(run{Cells: []string{"for {}"}, Timeout: time.Second})
	if got := classify(res, ""); got.Class != timeout {
		t.Errorf("an endless loop: %s %s, want timeout", got.Class, got.Msg)
	}
	if d := time.Since(start); d > hardGrace {
		t.Errorf("the endless loop took %v", d)
	}
	// The worker that ran it was replaced: the next run is unaffected.
	res = r.do(run{Cells: []string{`import "fmt"`, `fmt.Println("after")`}, Timeout: 10 * time.Second})
	if got := classify(res, "after"); got.Class != exact {
		t.Errorf("after a timeout: %s %s %q", got.Class, got.Msg, res.Stdout)
	}
}

// TestWorkerCrash crashes the worker from inside a cell (a stack overflow is a fatal error, not a
// panic): the run is an error saying so, and the next run gets a new worker.
func TestWorkerCrash(t *testing.T) {
	r := testRunner(t)
	crash := `debug.SetMaxStack(1 << 20)
var f func(n int) int
f = func(n int) int { return f(n+1) + 1 }
f(0)`
	res := r.do(run{Cells: []string{`import "runtime/debug"`, crash}, Timeout: 10 * time.Second})
	t.Logf("crash: %s", res.Err)
	if got := classify(res, ""); got.Class != failed || res.ErrName != "Crash" || !strings.Contains(got.Msg, "stack") {
		t.Errorf("a crashed worker: %s %q, want a Crash error about the stack", got.Class, got.Msg)
	}
	res = r.do(run{Cells: []string{`import "fmt"`, `fmt.Println("again")`}, Timeout: 10 * time.Second})
	if got := classify(res, "again"); got.Class != exact || r.starts != 2 {
		t.Errorf("after a crash: %s %s, %d workers started", got.Class, got.Msg, r.starts)
	}
}

// TestWorkingDirectory: an example runs in its package's directory (testdata reads work).
func TestWorkingDirectory(t *testing.T) {
	r := testRunner(t)
	dir := filepath.Join(goSrc(), "strings")
	res := r.do(run{Dir: dir, Cells: []string{`import ("fmt"; "os")`, `wd, _ := os.Getwd(); fmt.Println(wd)`}, Timeout: 10 * time.Second})
	if got := strings.TrimSpace(res.Stdout); got != dir {
		t.Errorf("working directory %q (%s %s), want %q", got, res.ErrName, res.Err, dir)
	}
}

func TestBuildProgram(t *testing.T) {
	p := load(t, entry{"strings/example_test.go", "ExampleContains"})
	if !strings.HasPrefix(p.Whole(), "package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n") {
		t.Errorf("whole program starts:\n%s", p.Whole()[:min(80, len(p.Whole()))])
	}
	if !strings.Contains(p.Whole(), "func main() {") || strings.Contains(p.Whole(), "func Example") {
		t.Errorf("whole program: want the example as func main and no other example:\n%s", p.Whole())
	}
	last := p.Cells[len(p.Cells)-1]
	// The body names its first line's line in the file, as a //line directive.
	if !strings.HasPrefix(last, "//line example_test.go:46\n"+`fmt.Println(strings.Contains("seafood", "foo"))`) {
		t.Errorf("last cell, want the body dedented after its line directive:\n%s", last)
	}
	if !strings.HasPrefix(strings.TrimSpace(p.Want), "true\nfalse\ntrue\ntrue") {
		t.Errorf("want %q", p.Want)
	}
}

func TestDedentKeepsRawStrings(t *testing.T) {
	body := "\n\tconst s = `a\n\tb`\n\tfmt.Println(s)\n"
	want := "const s = `a\n\tb`\nfmt.Println(s)\n"
	if got := dedent(body); got != want {
		t.Errorf("dedent:\n%q\nwant\n%q", got, want)
	}
}

func TestOrderDecls(t *testing.T) {
	src := `package p
func useT() { var t T; t.M() }
func (T) M() { helper() }
type T int
func helper() {}
func even(n int) bool { return n == 0 || odd(n-1) }
func odd(n int) bool { return n != 0 && even(n-1) }
var x = useT
type S struct{ xs []int }
func (s *S) Sort() { sort.Sort(s) }
func (s *S) Len() int { return len(s.xs) }
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, group := range orderDecls(f.Decls) {
		var g []string
		for _, i := range group {
			g = append(g, declName(f.Decls[i]))
		}
		names = append(names, strings.Join(g, "+"))
	}
	got := strings.Join(names, " ")
	want := "T helper M useT even+odd x S Len Sort"
	if got != want {
		t.Errorf("order %q, want %q", got, want)
	}
}

func TestDraw(t *testing.T) {
	var eligible []entry
	for p := 0; p < 10; p++ {
		for i := 0; i <= p; i++ {
			eligible = append(eligible, entry{fmt.Sprintf("pkg%d/example_test.go", p), fmt.Sprintf("Example%d", i)})
		}
	}
	a, b := draw(eligible, 12, 1), draw(eligible, 12, 1)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("two draws with one seed differ:\n%v\n%v", a, b)
	}
	if !sort.SliceIsSorted(a, func(i, j int) bool { return a[i].String() < a[j].String() }) || len(a) != 12 {
		t.Errorf("draw: %d entries, sorted %v", len(a), a)
	}
	pkgs := map[string]int{}
	for _, e := range a {
		pkgs[pathDir(e.File)]++
	}
	if len(pkgs) != 10 {
		t.Errorf("12 drawn from 10 packages cover %d of them: %v", len(pkgs), a)
	}
	if c := draw(eligible, 12, 2); fmt.Sprint(c) == fmt.Sprint(a) {
		t.Errorf("seeds 1 and 2 draw the same")
	}
}

// TestWalk walks two packages of the distribution: it finds ExampleContains, and sorts out an
// Unordered output.
func TestWalk(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks packages from source")
	}
	for _, dir := range []string{"strings", "math/rand/v2"} {
		c, err := walkExamples(filepath.Join(goSrc(), filepath.FromSlash(dir)), true)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d with output, %d eligible, excluded %v", dir, c.withOutput, len(c.eligible), c.excluded)
		switch dir {
		case "strings":
			found := false
			for _, e := range c.eligible {
				found = found || e == entry{"example_test.go", "ExampleContains"}
			}
			if !found {
				t.Errorf("strings: ExampleContains not eligible: %v", c.eligible)
			}
		case "math/rand/v2":
			if c.excluded[exclUnordered] == 0 {
				t.Errorf("math/rand/v2: no Unordered output found")
			}
		}
	}
}

// declName names a declaration for TestOrderDecls.
func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return d.Name.Name
	case *ast.GenDecl:
		switch sp := d.Specs[0].(type) {
		case *ast.TypeSpec:
			return sp.Name.Name
		case *ast.ValueSpec:
			return sp.Names[0].Name
		}
	}
	return "?"
}
