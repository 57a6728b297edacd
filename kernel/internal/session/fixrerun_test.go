package session

import (
	"fmt"
	"strings"
	"testing"
)

// breakages are the ways a student's cell fails to compile: each takes a cell and returns a
// broken version of it.
var breakages = []struct {
	name  string
	apply func(cell string) string
}{
	{"typo in a statement", func(c string) string { return "_ = undefinedName\n" + c }},
	{"typo in a function body", func(c string) string { return c + "\nfunc brokenFunc() { undefinedName() }" }},
	{"bad import", func(c string) string { return "import \"no/such/package\"\n" + c }},
	// A misspelt type: one that is not near a known name waits for a later cell (waiting.go).
	{"bad type", func(c string) string { return c + "\ntype brokenType struct{ f flaot64 }" }},
	{"wrong type", func(c string) string { return c + "\nvar brokenVar int = \"text\"" }},
}

// TestFixAndRerun runs every program of testdata/cells with each of its cells first broken
// (see breakages), then fixed: the broken cell must fail and change nothing, so the session's
// transcript equals that of the unbroken program.
func TestFixAndRerun(t *testing.T) {
	for pi, p := range cellPrograms(t) {
		program := strings.Join(p.cells, "\n")
		if strings.Contains(program, "goroutine") || strings.Contains(program, "time.") {
			continue // output timing of goroutines is not the point here
		}
		want := transcript(t, p.cells, -1, "")
		for i := range p.cells {
			b := breakages[(pi+i)%len(breakages)]
			t.Run(fmt.Sprintf("%s/cell%d/%s", p.name, i+1, strings.ReplaceAll(b.name, " ", "_")), func(t *testing.T) {
				got := transcript(t, p.cells, i, b.apply(p.cells[i]))
				if got != want {
					t.Errorf("after a broken cell %d (%s), then the fixed one:\n%s\nwant (never broken):\n%s", i+1, b.name, got, want)
				}
			})
		}
	}
}

// transcript runs cells in a new session; with broken != -1, the cell broken runs first in
// place of cell number broken (it must fail), then the real one.
func transcript(t *testing.T, cells []string, broken int, brokenCell string) string {
	t.Helper()
	s := newSession(t)
	var got strings.Builder
	for i, cell := range cells {
		if i == broken {
			out, res, err := exec(t, s, brokenCell)
			if err == nil || out != "" || res != "" {
				t.Errorf("broken cell %d ran: out %q, result %q, error %v\n%s", i+1, out, res, err, brokenCell)
			}
		}
		out, res, err := exec(t, s, cell)
		got.WriteString(out)
		if res != "" {
			fmt.Fprintf(&got, "Out: %s\n", res)
		}
		if err != nil {
			fmt.Fprintf(&got, "Error: %v\n", err)
		}
	}
	return got.String()
}
