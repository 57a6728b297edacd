package session

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gptnotes/gptnotes/kernel/display"
)

// Tests of what a cell sees of the program it runs in: os.Exit, its command line, the order of
// its output.

// runCell runs one cell with a fresh recorder, giving up after timeout (a cell that hangs the
// kernel fails the test instead of the test binary).
func runCell(t *testing.T, s *Session, code string, timeout time.Duration) (*recorder, error) {
	t.Helper()
	r := newRecorder()
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(context.Background(), code, r)
		done <- err
	}()
	select {
	case err := <-done:
		return r, err
	case <-time.After(timeout):
		t.Fatalf("cell %q still running after %v", code, timeout)
		return nil, nil
	}
}

// wantExit checks that err is the Exit error of os.Exit(code).
func wantExit(t *testing.T, code string, err error, exitCode int) {
	t.Helper()
	var ce *CellError
	if !errors.As(err, &ce) || ce.Name != "Exit" || !strings.HasPrefix(ce.Value, fmt.Sprintf("os.Exit(%d) ", exitCode)) {
		t.Errorf("%q: err = %v, want Exit with os.Exit(%d)", code, err, exitCode)
	}
}

// os.Exit ends the cell without running a deferred call, whoever calls it; no recover stops it.
func TestExitRunsNoDeferredCalls(t *testing.T) {
	s := newSession(t)
	if _, err := runCell(t, s, `import ("fmt"; "log"; "os"; "time"); total := 10; _ = log.Print; _ = time.Now`, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		code   string
		exit   int
		stdout string
	}{
		{"func f1() { defer fmt.Println(\"f1 deferred\"); os.Exit(3) }\nf1()", 3, ""},
		{"defer fmt.Println(\"cell deferred\")\nos.Exit(3)\nfmt.Println(\"after\")", 3, ""},
		{"func f2() {\n\tdefer func() { recover(); fmt.Println(\"recovered\") }()\n\tos.Exit(4)\n}\nf2()\nfmt.Println(\"after\")", 4, ""},
		{"defer func() { recover(); fmt.Println(\"recovered\") }()\nos.Exit(5)", 5, ""},
		{"func f3() { defer fmt.Println(\"outer deferred\"); func() { defer fmt.Println(\"inner deferred\"); os.Exit(6) }() }\nf3()", 6, ""},
		{"defer fmt.Println(\"cell deferred\")\ngo func() {\n\tdefer fmt.Println(\"goroutine deferred\")\n\tos.Exit(7)\n}()\ntime.Sleep(20 * time.Second)\nfmt.Println(\"after\")", 7, ""},
		{"defer fmt.Println(\"deferred first\")\ndefer os.Exit(8)\ndefer fmt.Println(\"deferred last\")\nfmt.Println(\"body\")", 8, "body\ndeferred last\n"},
		{"defer fmt.Println(\"cell deferred\")\nlog.Fatal(\"fatal\")", 1, ""},
	} {
		before := parked.Load()
		start := time.Now()
		r, err := runCell(t, s, c.code, 10*time.Second)
		wantExit(t, c.code, err, c.exit)
		if got := r.stdout(); got != c.stdout {
			t.Errorf("%q: stdout = %q, want %q", c.code, got, c.stdout)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q: took %v", c.code, d)
		}
		if n := parked.Load() - before; n != 1 {
			t.Errorf("%q: %d goroutines parked, want 1", c.code, n)
		}
		if _, res, err := exec(t, s, "total"); err != nil || res != "10" {
			t.Fatalf("after %q: total = %q, %v", c.code, res, err)
		}
	}
}

func TestLogFatalPrintsThenExits(t *testing.T) {
	s := newSession(t)
	r, err := runCell(t, s, "import \"log\"\nlog.SetFlags(0)\nlog.SetPrefix(\"p: \")\nlog.Fatalf(\"bad %d\", 42)", 10*time.Second)
	wantExit(t, "log.Fatalf", err, 1)
	if got, want := r.stderr(), "p: bad 42\n"; got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}

// os.Exit in a goroutine of an earlier cell ends the cell that runs, as it would end the program;
// with no cell running, it only parks its goroutine. (A cell that ends by os.Exit, or by an
// interrupt, stops every earlier cell's goroutine at its next step: the no-cell case comes first.)
func TestExitFromEarlierCellsGoroutine(t *testing.T) {
	s := newSession(t)
	code := `import ("os"; "time")
ch1, ch2 := make(chan bool), make(chan bool)
go func() { <-ch1; time.Sleep(50 * time.Millisecond); os.Exit(11) }()
go func() { <-ch2; os.Exit(12) }()`
	if _, err := runCell(t, s, code, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	before := parked.Load()
	if _, err := runCell(t, s, "close(ch1)", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); parked.Load() == before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the goroutine that called os.Exit with no cell running was not parked")
		}
	}
	r, err := runCell(t, s, "close(ch2)\ntime.Sleep(20 * time.Second)", 10*time.Second)
	wantExit(t, "close(ch2)", err, 12)
	if r.stderr() != "" {
		t.Errorf("stderr = %q", r.stderr())
	}
	if _, res, err := exec(t, s, "1 + 1"); err != nil || res != "2" {
		t.Errorf("after: %q %v", res, err)
	}
}

// A String method that calls os.Exit while the kernel renders the cell's result must not stop
// the kernel.
func TestExitWhileRendering(t *testing.T) {
	s := newSession(t)
	code := "import \"os\"\ntype exiter int\nfunc (exiter) String() string { os.Exit(13); return \"\" }\nexiter(1)"
	done := make(chan struct{})
	var res string
	var err error
	go func() {
		defer close(done)
		res, err = "", nil
		_, res, err = exec(t, s, code)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the kernel hangs")
	}
	// An Exit error (String ran in the cell), or a rendering that panicked (String ran in the
	// kernel): either way, the kernel goes on.
	var ce *CellError
	if !(errors.As(err, &ce) && ce.Name == "Exit") && !strings.Contains(res, "os.Exit(13)") {
		t.Errorf("result %q, err %v", res, err)
	}
	if _, res, err := exec(t, s, "1 + 2"); err != nil || res != "3" {
		t.Errorf("after: %q %v", res, err)
	}
}

// --- the command line --------------------------------------------------------------------------

// Cells have a command line of their own; the process's (the test binary's, parsed by testing)
// stays as it was.
func TestCommandLineIsTheCells(t *testing.T) {
	args := slices.Clone(os.Args)
	commandLine := flag.CommandLine
	s := newSession(t)
	r, err := runCell(t, s, `import ("flag"; "fmt"; "os")
verbose := flag.Bool("v", false, "verbose")
flag.Parse()
fmt.Println(os.Args, flag.Args(), flag.NArg(), flag.NFlag(), *verbose, flag.CommandLine.Name())`, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if want := "[gptnotes] [] 0 0 false gptnotes\n"; r.stdout() != want {
		t.Errorf("stdout = %q, want %q", r.stdout(), want)
	}
	if !slices.Equal(os.Args, args) || flag.CommandLine != commandLine || !flag.Parsed() {
		t.Errorf("the process's command line changed: %q, %p→%p, parsed %v", os.Args, commandLine, flag.CommandLine, flag.Parsed())
	}
	if cellFlags.Lookup("v") == nil || flag.CommandLine.Lookup("v") != nil {
		t.Errorf("flag -v defined on the wrong set")
	}
}

// freshCommandLine lets a program that defines its flags run again.
func TestFreshCommandLine(t *testing.T) {
	s := newSession(t)
	code := `import ("flag"; "fmt")
name := flag.String("name", "world", "whom to greet")
flag.Parse()
fmt.Println("hello,", *name, flag.Parsed())`
	for i := range 2 {
		freshCommandLine()
		if fs := cellFlags; fs.Parsed() || fs.NFlag() != 0 || fs.Lookup("name") != nil || fs.Name() != "gptnotes" {
			t.Fatalf("fresh command line: parsed %v, %d flags set, name %q", fs.Parsed(), fs.NFlag(), fs.Name())
		}
		r, err := runCell(t, s, code, 10*time.Second)
		if err != nil || r.stdout() != "hello, world true\n" {
			t.Fatalf("run %d: %q %v", i+1, r.stdout(), err)
		}
	}
	// Without it, a second definition panics, as it does in Go.
	_, err := runCell(t, s, `_ = flag.String("name", "", "")`, 10*time.Second)
	var ce *CellError
	if !errors.As(err, &ce) || ce.Name != "Panic" || !strings.Contains(ce.Value, "flag redefined: name") {
		t.Errorf("err = %v, want a flag redefined panic", err)
	}
}

// flag.Parse on the cells' command line exits as ExitOnError does: 0 for -help, 2 otherwise.
// flag.NewFlagSet(…, flag.ExitOnError) panics instead of ending the kernel.
func TestFlagErrorsEndTheCell(t *testing.T) {
	s := newSession(t)
	if _, err := runCell(t, s, `import ("flag"; "fmt"; "os"); n := flag.Int("n", 1, "how many"); args := &os.Args; _ = fmt.Sprint`, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	r, err := runCell(t, s, "*args = []string{\"prog\", \"-help\"}\nflag.Parse()", 10*time.Second)
	wantExit(t, "-help", err, 0)
	if want := "Usage of gptnotes:\n  -n int\n    \thow many (default 1)\n"; r.stderr() != want {
		t.Errorf("stderr = %q, want %q", r.stderr(), want)
	}
	_, err = runCell(t, s, "*args = []string{\"prog\", \"-n\", \"x\"}\nflag.Parse()", 10*time.Second)
	wantExit(t, "-n x", err, 2)

	// A cell-defined flag.Usage is what the command line calls.
	r, err = runCell(t, s, "u := &flag.Usage\n*u = func() { fmt.Fprintln(flag.CommandLine.Output(), \"custom usage\") }\n*args = []string{\"prog\", \"-bad\"}\nflag.Parse()", 10*time.Second)
	wantExit(t, "custom usage", err, 2)
	if want := "flag provided but not defined: -bad\ncustom usage\n"; r.stderr() != want {
		t.Errorf("stderr = %q, want %q", r.stderr(), want)
	}

	var ce *CellError
	if _, err := runCell(t, s, "import \"io\"\nfs := flag.NewFlagSet(\"sub\", flag.ExitOnError)\nfs.SetOutput(io.Discard)\nfs.Parse([]string{\"-x\"})", 10*time.Second); !errors.As(err, &ce) || ce.Name != "Panic" || !strings.Contains(ce.Value, "-x") {
		t.Errorf("NewFlagSet(ExitOnError).Parse: err = %v, want a Panic", err)
	}
}

// --- output order ------------------------------------------------------------------------------

// tagged is the recorder's stream events as lines, each prefixed by its stream's initial.
func tagged(r *recorder) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		name, text, ok := strings.Cut(e, ":")
		if !ok || (name != "stdout" && name != "stderr") {
			out = append(out, e)
			continue
		}
		for _, line := range strings.SplitAfter(text, "\n") {
			if line != "" {
				out = append(out, name[3:4]+" "+strings.TrimSuffix(line, "\n")) // "o …" or "e …"
			}
		}
	}
	return out
}

func TestOutputOrder(t *testing.T) {
	s := newSession(t)
	if _, err := runCell(t, s, `import ("fmt"; "io"; "log"; "os"); _ = io.WriteString; _ = log.Print; _ = fmt.Print; _ = os.Args`, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		code string
		want []string
	}{
		{"fmt.Println(\"out 1\")\nfmt.Fprintln(os.Stderr, \"err 2\")\nfmt.Println(\"out 3\")",
			[]string{"o out 1", "e err 2", "o out 3"}},
		{"fmt.Fprintf(os.Stderr, \"e%d\\n\", 1)\nfmt.Fprint(os.Stdout, \"o2\\n\")\nlog.SetFlags(0)\nlog.Print(\"e3\")\nfmt.Printf(\"o%d\\n\", 4)\nfmt.Fprintln(os.Stderr, \"e5\")",
			[]string{"e e1", "o o2", "e e3", "o o4", "e e5"}},
		// A write to the descriptor (os.File's own methods) is ordered with the Go writes around
		// it. (Two descriptor writes in a row, to fds 1 and 2, may swap: see capture.go.)
		{"os.Stderr.WriteString(\"e1\\n\")\nfmt.Println(\"o2\")\nio.WriteString(os.Stderr, \"e3\\n\")\nfmt.Println(\"o4\")\nos.Stdout.Write([]byte(\"o5\\n\"))\nfmt.Fprintln(os.Stderr, \"e6\")",
			[]string{"e e1", "o o2", "e e3", "o o4", "o o5", "e e6"}},
	} {
		r, err := runCell(t, s, c.code, 10*time.Second)
		if err != nil {
			t.Fatalf("%q: %v", c.code, err)
		}
		if got := tagged(r); !slices.Equal(got, c.want) {
			t.Errorf("%q:\n got %q\nwant %q", c.code, got, c.want)
		}
	}
	// Many alternations, Go and descriptor writes, in a loop.
	r, err := runCell(t, s, "for i := 0; i < 300; i++ {\n\tos.Stderr.WriteString(\"e\\n\")\n\tfmt.Println(\"o\")\n\tfmt.Fprintln(os.Stderr, \"e\")\n}", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	got := tagged(r)
	if len(got) != 900 {
		t.Fatalf("%d lines, want 900", len(got))
	}
	for i, line := range got {
		if want := [...]string{"e e", "o o", "e e"}[i%3]; line != want {
			t.Fatalf("line %d = %q, want %q (%q)", i, line, want, got[max(0, i-3):i+1])
		}
	}
}

// Text written before a display call arrives before it.
func TestDisplayPublisherKeepsOrder(t *testing.T) {
	newSession(t) // capture started
	r := newRecorder()
	flushCapture()
	setSink(r)
	defer setSink(nil)
	p := displayPublisher(r)
	cellStdout.Write([]byte("before\n"))
	p.Display(display.Bundle{Data: map[string]any{display.MIMEPlain: "shown"}}, "", false)
	cellStderr.Write([]byte("after\n"))
	p.ClearOutput(false)
	flushCapture()
	want := []string{"o before", "display(update=false):shown", "e after", "clear"}
	if got := tagged(r); !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
}

// Stream messages are at most chunkSize bytes, valid UTF-8, even when a write cuts a rune.
func TestStreamChunksAreWholeRunes(t *testing.T) {
	newSession(t)
	r := newRecorder()
	flushCapture()
	setSink(r)
	defer setSink(nil)
	text := strings.Repeat("héllo, wörld ", 20000) // 280 kB, two-byte runes throughout
	b := []byte(text)
	for i := 0; i < len(b); i += 7 { // writes of 7 bytes: many cut a rune
		cellStdout.Write(b[i:min(i+7, len(b))])
	}
	flushCapture()
	var all strings.Builder
	for _, e := range r.events {
		msg := strings.TrimPrefix(e, "stdout:")
		if len(msg) > chunkSize || !utf8.ValidString(msg) {
			t.Fatalf("message of %d bytes, valid UTF-8 %v", len(msg), utf8.ValidString(msg))
		}
		all.WriteString(msg)
	}
	if all.String() != text {
		t.Errorf("received %d bytes, want %d", all.Len(), len(text))
	}
}
