package session

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// useTestPackage gives s a compiled package "testpkg" whose functions print from compiled code.
func useTestPackage(t *testing.T, s *Session, release <-chan struct{}) {
	t.Helper()
	err := s.use(map[string]map[string]reflect.Value{
		"example.com/testpkg/testpkg": {
			"Say":  reflect.ValueOf(func(msg string) { fmt.Println(msg) }),
			"Wait": reflect.ValueOf(func() { <-release }),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestCompiledOutputCaptured(t *testing.T) {
	s := newSession(t)
	useTestPackage(t, s, nil)
	r := newRecorder()
	_, err := s.Execute(context.Background(), `
import ("fmt"; "os"; "example.com/testpkg")
testpkg.Say("from compiled fmt.Println")
fmt.Fprintln(os.Stdout, "to os.Stdout")
os.Stdout.WriteString("raw write\n")
fmt.Fprintln(os.Stderr, "to os.Stderr")
`, r)
	if err != nil {
		t.Fatal(err)
	}
	if want := "from compiled fmt.Println\nto os.Stdout\nraw write\n"; r.stdout() != want {
		t.Errorf("stdout = %q, want %q", r.stdout(), want)
	}
	if want := "to os.Stderr\n"; r.stderr() != want {
		t.Errorf("stderr = %q, want %q", r.stderr(), want)
	}
}

// The first line must reach the sink while the cell is still blocked.
func TestOutputStreamsAsItHappens(t *testing.T) {
	s := newSession(t)
	release := make(chan struct{})
	useTestPackage(t, s, release)
	r := newRecorder()
	done := make(chan error)
	go func() {
		_, err := s.Execute(context.Background(), `
import ("fmt"; "example.com/testpkg")
fmt.Println("first")
testpkg.Wait()
fmt.Println("second")`, r)
		done <- err
	}()
	deadline := time.Now().Add(5 * time.Second)
	for r.stdout() != "first\n" {
		if time.Now().After(deadline) {
			close(release)
			t.Fatalf("stdout while the cell blocks = %q, want \"first\\n\"", r.stdout())
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if r.stdout() != "first\nsecond\n" {
		t.Errorf("stdout = %q", r.stdout())
	}
}

func TestTenMegabytesOfOutput(t *testing.T) {
	s := newSession(t)
	r := newRecorder()
	start := time.Now()
	_, err := s.Execute(context.Background(), `
import ("fmt"; "strings")
line := strings.Repeat("x", 1023)
for i := 0; i < 10240; i++ {
	fmt.Println(line)
}`, r)
	if err != nil {
		t.Fatal(err)
	}
	out := r.stdout()
	if len(out) != 10<<20 {
		t.Errorf("received %d bytes, want %d", len(out), 10<<20)
	}
	largest := 0
	for _, e := range r.events {
		largest = max(largest, len(e)-len("stdout:"))
	}
	if largest > chunkSize {
		t.Errorf("largest stream message %d bytes, want ≤ %d", largest, chunkSize)
	}
	t.Logf("10 MB in %d messages, %v", len(r.events), time.Since(start))
	// the session still works
	if _, res, err := exec(t, s, "len(line)"); err != nil || res != "1023" {
		t.Errorf("after 10 MB: %q %v", res, err)
	}
}

func TestInterruptInfiniteLoop(t *testing.T) {
	s := newSession(t)
	if _, _, err := exec(t, s, "kept := 42"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := s.Execute(ctx, "n := 0\nfor {\n\tn++\n}", newRecorder())
	var ce *CellError
	if !errors.As(err, &ce) || ce.Name != "Interrupted" {
		t.Fatalf("err = %v, want Interrupted", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("interrupt took %v", d)
	}
	if _, res, err := exec(t, s, "kept"); err != nil || res != "42" {
		t.Errorf("after interrupt: kept = %q, %v", res, err)
	}
}

// Every kind of failure leaves the earlier cells' variables intact, with exactly one error and
// nothing on stderr.
func TestStateSurvivesFailures(t *testing.T) {
	s := newSession(t)
	if _, _, err := exec(t, s, `import "os"; import "time"; total := 10`); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct{ name, code string }{
		{"SyntaxError", "total +"},
		{"SyntaxError", "func main()\n{\n\ttotal = 1\n}"}, // Go: missing function body (a fuzz find)
		{"CompileError", "total = nosuch"},
		{"Panic", "var m map[string]int\nm[\"a\"] = 1"},
		{"Panic", `panic("explicit")`},
		{"Exit", "os.Exit(1)"},
		{"GoroutinePanic", "go func() { var p *int; *p = 1 }()\ntime.Sleep(3 * time.Second)"},
		{"Unsupported", "import \"iter\""},
	} {
		r := newRecorder()
		_, err := s.Execute(context.Background(), bad.code, r)
		var ce *CellError
		if !errors.As(err, &ce) || ce.Name != bad.name {
			t.Errorf("%q: err = %v, want %s", bad.code, err, bad.name)
			continue
		}
		if r.stderr() != "" {
			t.Errorf("%q: stderr = %q, want nothing (the trace belongs in the error)", bad.code, r.stderr())
		}
		if _, res, err := exec(t, s, "total"); err != nil || res != "10" {
			t.Fatalf("after %q: total = %q, %v", bad.code, res, err)
		}
	}
}

func TestPanicTraceback(t *testing.T) {
	s := newSession(t)
	_, err := s.Execute(context.Background(), `func inner() { panic("deep") }
func outer() { inner() }
outer()`, newRecorder())
	var ce *CellError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v", err)
	}
	tb := strings.Join(ce.Traceback, "\n")
	for _, want := range []string{"panic: deep", "main.inner", "cell:1:", "main.outer", "cell:2:"} {
		if !strings.Contains(tb, want) {
			t.Errorf("traceback lacks %q:\n%s", want, tb)
		}
	}
}

// An interrupted cell blocked in a compiled call must not resume once another cell has run
// (yaegi shares one frame between all cells' top-level statements).
func TestInterruptedCellStaysStopped(t *testing.T) {
	s := newSession(t)
	if _, _, err := exec(t, s, "import \"time\"\nticks := 0"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := s.Execute(ctx, "for {\n\ttime.Sleep(50 * time.Millisecond)\n\tticks++\n}", newRecorder())
	var ce *CellError
	if !errors.As(err, &ce) || ce.Name != "Interrupted" {
		t.Fatalf("err = %v, want Interrupted", err)
	}
	_, first, _ := exec(t, s, "ticks")
	time.Sleep(300 * time.Millisecond)
	_, second, _ := exec(t, s, "ticks")
	if first != second {
		t.Errorf("ticks went on after the interrupt: %s, then %s", first, second)
	}
}
