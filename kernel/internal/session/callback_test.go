package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gptnotes/gptnotes/kernel/comm"
)

// TestRunCallback: a widget callback written in a cell runs through RunCallback with its output
// captured to the callback's sink, its variables shared with later cells without a data race
// (go test -race), a panic printed by the widget, and (without -race) an infinite loop stopped
// by cancelling, after which callbacks still run.
func TestRunCallback(t *testing.T) {
	s := newSession(t)
	run := func(code string) string {
		t.Helper()
		r := newRecorder()
		if _, err := s.Execute(context.Background(), code, r); err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		return r.streams["stdout"].String()
	}
	ids := run(`import (
	"fmt"
	"github.com/gptnotes/gptnotes/kernel/widget"
)
n := 0
b := widget.NewButton("b")
b.OnClick(func() { n++; fmt.Println("click", n) })
boom := widget.NewButton("boom")
boom.OnClick(func() { panic("boom") })
spin := widget.NewButton("spin")
spin.OnClick(func() { for { n++ } })
fmt.Println(b.ModelID(), boom.ModelID(), spin.ModelID())`)
	f := strings.Fields(ids)
	click := func(id string) func() {
		return func() {
			comm.HandleMsg(id, map[string]any{"method": "custom", "content": map[string]any{"event": "click"}})
		}
	}
	for i := 1; i <= 3; i++ {
		r := newRecorder()
		if err := s.RunCallback(context.Background(), click(f[0]), r); err != nil {
			t.Fatal(err)
		}
		if got, want := r.streams["stdout"].String(), "click "+string(rune('0'+i))+"\n"; got != want {
			t.Errorf("click %d printed %q, want %q", i, got, want)
		}
	}
	if got := run(`fmt.Println(n)`); got != "3\n" {
		t.Errorf("the cell sees n = %q after three clicks", got)
	}
	r := newRecorder()
	if err := s.RunCallback(context.Background(), click(f[1]), r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.streams["stderr"].String(), "panic in a callback of Button: boom") {
		t.Errorf("the panic was not printed: %q", r.streams["stderr"].String())
	}
	if raceEnabled {
		// yaegi's ExecuteWithContext writes its results from two goroutines when cancelled
		// (interp/program.go); the detector flags that, in yaegi, on every interrupt.
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := s.RunCallback(ctx, click(f[2]), newRecorder()); err == nil {
		t.Errorf("an infinite callback returned no error when cancelled")
	}
	if got := run(`fmt.Println(n > 3)`); got != "true\n" {
		t.Errorf("after the interrupt the cell says %q", got)
	}
	if err := s.RunCallback(context.Background(), click(f[0]), newRecorder()); err != nil {
		t.Errorf("a callback after an interrupt: %v", err)
	}
}
