package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const testListFile = "../../../testdata/gotests.txt"

// TestTestRunnable checks which files testpick lists: a // run program whose build constraint
// holds here, not one with flags, one for another system, or one that is not run.
func TestTestRunnable(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ src, want string }{
		"plain.go":   {"// run\n\npackage main\nfunc main() {}\n", ""},
		"built.go":   {"// run\n\n//go:build " + goosArch() + "\n\npackage main\nfunc main() {}\n", ""},
		"flags.go":   {"// run -race\n\npackage main\nfunc main() {}\n", exclRunFlags},
		"plan9.go":   {"// run\n\n//go:build plan9\n\npackage main\nfunc main() {}\n", exclTestBuild},
		"compile.go": {"// compile\n\npackage p\n", exclNotRunnable},
		"errors.go":  {"// errorcheck\n\npackage p\n", exclNotRunnable},
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := testRunnable(path)
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, c.want)
		}
	}
}

func goosArch() string {
	for _, tag := range []string{"linux", "darwin", "windows"} {
		if buildTag(tag) {
			return tag
		}
	}
	return "gc"
}

// TestTestList checks the committed list: made by testpick, sorted, no repeats, and (with this
// Go's test directory) each file still a // run program.
func TestTestList(t *testing.T) {
	files, header, err := readTestList(testListFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(header, "\n"), "excorpus testpick") || len(files) < 20 {
		t.Fatalf("%s: %d programs, header %q", testListFile, len(files), header)
	}
	for i, f := range files {
		if i > 0 && files[i-1] >= f {
			t.Errorf("%q before %q: not sorted, or repeated", files[i-1], f)
		}
		if reason, err := testRunnable(filepath.Join(goTest(), f)); err == nil && reason != "" {
			t.Errorf("%s: %s", f, reason)
		}
	}
}

// TestFirstTests runs the first programs of the list: each gets a class from the harness (no
// harness failure, no crash of the worker), and none prints something other than its .out
// text with no error.
func TestFirstTests(t *testing.T) {
	files, _, err := readTestList(testListFile)
	if err != nil {
		t.Fatal(err)
	}
	r := testRunner(t)
	for _, f := range files[:min(10, len(files))] {
		if _, err := os.Stat(filepath.Join(goTest(), f)); err != nil {
			t.Logf("%s: %v (another Go version)", f, err)
			continue
		}
		o := runTest(r, goTest(), f, 10*time.Second)
		t.Logf("%s: %s %s", f, o.Class, o.Msg)
		switch {
		case o.Res.ErrName == "Harness" || o.Res.ErrName == "Crash" || strings.HasPrefix(o.Msg, "Harness"):
			t.Errorf("%s: the harness failed: %s", f, o.Msg)
		case o.Class == differs:
			t.Errorf("%s: printed %q, want %q, with no error", f, o.Res.Output, o.Want)
		}
	}
}

func TestSameButSourceLines(t *testing.T) {
	want := "logger: example_test.go:19: Hello, log file!\n"
	if !sameButSourceLines("logger: cell:12: Hello, log file!\n", want) {
		t.Errorf("cell:12 for example_test.go:19: not the same but for the lines")
	}
	if sameButSourceLines("logger: cell:12: Hello, world!\n", want) {
		t.Errorf("another message: the same but for the lines")
	}
	if sameButSourceLines("logger: Hello, log file!\n", "logger: Hello, log file!\n") {
		t.Errorf("no cell position: counted as lines (it is exact)")
	}
}
