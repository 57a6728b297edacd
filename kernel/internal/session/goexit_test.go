package session

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// A cell whose goroutine ends early (runtime.Goexit, testing.T's SkipNow) fails: it did not
// reach its end.
func TestGoexitFailsTheCell(t *testing.T) {
	s := newSession(t)
	if _, err := runCell(t, s, `import ("fmt"; "runtime"; "testing"); func stop() { runtime.Goexit() }; _ = testing.Short`, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{
		"stop()\nfmt.Println(\"after\")",
		"(&testing.T{}).SkipNow()\nfmt.Println(\"after\")",
		"func f() int { stop(); return 1 }\nx := f()\nfmt.Println(\"after\", x)",
	} {
		r, err := runCell(t, s, code, 10*time.Second)
		var ce *CellError
		if !errors.As(err, &ce) || ce.Name != "Goexit" {
			t.Errorf("%q: err = %v, want Goexit", code, err)
		}
		if strings.Contains(r.stdout(), "after") {
			t.Errorf("%q: ran on after the Goexit: %q", code, r.stdout())
		}
	}
	if r, err := runCell(t, s, `fmt.Println("still here")`, 10*time.Second); err != nil || r.stdout() != "still here\n" {
		t.Errorf("after: %q, %v", r.stdout(), err)
	}
}
