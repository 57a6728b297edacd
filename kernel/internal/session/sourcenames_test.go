package session

import "testing"

// TestSourceNames: what a cell's lines are named in log output, with and without a package
// clause and //line directives; a directive's text inside a string names nothing.
func TestSourceNames(t *testing.T) {
	src := "x := 1\n//line a_test.go:19\nf()\ns := `\n//line b.go:5\n`\n//line c.go:7:3\ng()\n  //line d.go:1\nh()\n"
	out, ds := takeLineDirectives(src)
	if len(out) != len(src) {
		t.Fatalf("blanking changed the length: %d, want %d", len(out), len(src))
	}
	for line, want := range map[int]string{1: "cell:1", 3: "a_test.go:19", 6: "a_test.go:22", 8: "c.go:7", 10: "c.go:9"} {
		if got := (sourceNames{directives: ds}).position(line); got != want {
			t.Errorf("line %d: %s, want %s", line, got, want)
		}
	}
	if got := (sourceNames{whole: true}).position(4); got != "main.go:4" {
		t.Errorf("a pasted file's line 4: %s, want main.go:4", got)
	}
	if len(ds) != 2 {
		t.Errorf("%d directives, want 2 (not the one in a string, nor the indented one): %+v", len(ds), ds)
	}
	if out[7:13] != "//    " {
		t.Errorf("directive not blanked: %q", out[7:20])
	}
}
