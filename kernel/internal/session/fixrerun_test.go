package session

import (
	"fmt"
	"os"
	"path/filepath"
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
	{"bad type", func(c string) string { return c + "\ntype brokenType struct{ f undefinedType }" }},
	{"wrong type", func(c string) string { return c + "\nvar brokenVar int = \"text\"" }},
}

// TestFixAndRerun runs every program of testdata/cells with each of its cells first broken
// (see breakages), then fixed: the broken cell must fail and change nothing, so the session's
// transcript equals that of the unbroken program.
func TestFixAndRerun(t *testing.T) {
	files, err := filepath.Glob("../../../testdata/cells/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cell programs: %v", err)
	}
	for fi, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		program, _, _ := strings.Cut(string(src), "\n// Output:\n")
		cells := strings.Split(program, "\n// ---\n")
		name := strings.TrimSuffix(filepath.Base(file), ".go")
		if strings.Contains(program, "goroutine") || strings.Contains(program, "time.") {
			continue // output timing of goroutines is not the point here
		}
		want := transcript(t, cells, -1, "")
		for i := range cells {
			b := breakages[(fi+i)%len(breakages)]
			t.Run(fmt.Sprintf("%s/cell%d/%s", name, i+1, strings.ReplaceAll(b.name, " ", "_")), func(t *testing.T) {
				got := transcript(t, cells, i, b.apply(cells[i]))
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
