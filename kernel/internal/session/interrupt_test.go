package session

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// interrupt runs code until it is interrupted after d, and fails unless it was.
func interrupt(t *testing.T, s *Session, code string, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_, err := s.Execute(ctx, code, newRecorder())
	var ce *CellError
	if !errors.As(err, &ce) || ce.Name != "Interrupted" {
		t.Fatalf("%q: err = %v, want Interrupted", code, err)
	}
}

// After an interrupt, every function value an earlier cell made still runs: yaegi would leave
// them returning zero values (false, 0, "") with no error (interrupt.go).
func TestClosuresSurviveAnInterrupt(t *testing.T) {
	s := newSession(t)
	setup := `import ("sort"; "strings"; "time")
yes := func() bool { return true }
double := func(x int) int { return x * 2 }
count := 0
next := func() int { count++; return count }
type shout struct{ word string }
func (s shout) Loud() string { return strings.ToUpper(s.word) }
loud := shout{"go"}.Loud
byLen := func(a []string) { sort.Slice(a, func(i, j int) bool { return len(a[i]) < len(a[j]) }) }
func declared() int { return 7 }`
	if _, _, err := exec(t, s, setup); err != nil {
		t.Fatal(err)
	}
	const probe = `words := []string{"ccc", "a", "bb"}
byLen(words)
fmt.Println(yes(), double(21), next(), loud(), words, declared())`
	if out, _, err := exec(t, s, "import \"fmt\"\n"+probe); err != nil || out != "true 42 1 GO [a bb ccc] 7\n" {
		t.Fatalf("before any interrupt: %q, %v", out, err)
	}
	for i, loop := range []string{
		"for {}",                               // interpreted code: stops at its next step
		"for { time.Sleep(time.Millisecond) }", // mostly inside compiled code
		"n := 0\nfor { n = double(n) + 1 }",    // inside one of the closures
	} {
		interrupt(t, s, loop, 150*time.Millisecond)
		want := []string{"true 42 2 GO [a bb ccc] 7\n", "true 42 3 GO [a bb ccc] 7\n", "true 42 4 GO [a bb ccc] 7\n"}[i]
		if out, _, err := exec(t, s, probe); err != nil || out != want {
			t.Errorf("after interrupting %q: %q, %v; want %q", loop, out, err, want)
		}
	}
}

// A goroutine the interrupted cell started stops with it, though the run id is put back.
func TestInterruptStopsTheCellsGoroutines(t *testing.T) {
	s := newSession(t)
	if _, _, err := exec(t, s, "import (\"sync/atomic\"; \"time\")\nvar ticks atomic.Int64"); err != nil {
		t.Fatal(err)
	}
	interrupt(t, s, "go func() {\n\tfor {\n\t\tticks.Add(1)\n\t\ttime.Sleep(5 * time.Millisecond)\n\t}\n}()\nfor {}", 200*time.Millisecond)
	_, first, _ := exec(t, s, "ticks.Load()")
	time.Sleep(200 * time.Millisecond)
	_, second, _ := exec(t, s, "ticks.Load()")
	if first != second {
		t.Errorf("the interrupted cell's goroutine went on: ticks %s, then %s", first, second)
	}
}

// StopGoroutines, between cells, stops the goroutine a finished cell left running, and the
// earlier cells' functions still run afterwards (issue 48: the memory guard calls it).
func TestStopGoroutinesBetweenCells(t *testing.T) {
	s := newSession(t)
	setup := "import (\"sync/atomic\"; \"time\")\nvar ticks atomic.Int64\ndouble := func(x int) int { return 2 * x }\n" +
		"go func() {\n\tfor {\n\t\tticks.Add(1)\n\t\ttime.Sleep(5 * time.Millisecond)\n\t}\n}()"
	if _, _, err := exec(t, s, setup); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	_, before, _ := exec(t, s, "ticks.Load()")
	if before == "0" {
		t.Fatalf("the goroutine did not run: ticks %s", before)
	}
	if !s.StopGoroutines() {
		t.Fatal("StopGoroutines between cells: false")
	}
	time.Sleep(reviveWait)
	_, first, _ := exec(t, s, "ticks.Load()")
	time.Sleep(200 * time.Millisecond)
	_, second, err := exec(t, s, "ticks.Load()")
	if err != nil || first != second {
		t.Errorf("the leftover goroutine went on after StopGoroutines: ticks %s, then %s (%v)", first, second, err)
	}
	if _, r, err := exec(t, s, "double(21)"); err != nil || r != "42" {
		t.Errorf("an earlier cell's function after the stop: %q, %v", r, err)
	}
}

// A cell interrupted inside a long compiled call cannot be stopped: the next cell's stderr
// says so, and the session still works.
func TestInterruptInsideCompiledCodeIsReported(t *testing.T) {
	s := newSession(t)
	if _, _, err := exec(t, s, "import \"time\"\nok := func() bool { return true }"); err != nil {
		t.Fatal(err)
	}
	interrupt(t, s, "func() { time.Sleep(1500 * time.Millisecond) }()", 100*time.Millisecond)
	r := newRecorder()
	b, err := s.Execute(context.Background(), "ok()", r)
	if err != nil || b == nil || b.Data["text/plain"] != "true" {
		t.Errorf("after the interrupt: ok() = %v, %v", b, err)
	}
	if !strings.Contains(r.stderr(), "interrupted inside a call of compiled code") {
		t.Errorf("stderr %q does not say the interrupted cell is still in compiled code", r.stderr())
	}
}

// A cell ended while its main goroutine sleeps in compiled code never runs on, not even its
// deferred calls, though the run id is put back for the next cell.
func TestStoppedCellDoesNotRunOn(t *testing.T) {
	s := newSession(t)
	if _, _, err := exec(t, s, "import (\"fmt\"; \"os\"; \"time\")\nn := 0"); err != nil {
		t.Fatal(err)
	}
	code := "defer fmt.Println(\"cell deferred\")\ngo func() { os.Exit(7) }()\ntime.Sleep(700 * time.Millisecond)\nn = 1\nfmt.Println(\"after\")"
	if _, _, err := exec(t, s, code); err == nil || !strings.Contains(err.Error(), "os.Exit(7)") {
		t.Fatalf("err = %v, want the exit", err)
	}
	out, _, err := exec(t, s, "time.Sleep(time.Second)\nfmt.Println(n)")
	if err != nil || out != "0\n" {
		t.Errorf("a second later: %q, %v; want only 0 (no deferred call, no statement after the sleep)", out, err)
	}
}
