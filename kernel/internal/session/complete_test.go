package session

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestComplete(t *testing.T) {
	s := newSession(t)
	if _, _, err := exec(t, s, `import "strings"
type point struct{ X, Y int; label string }
func (p point) Norm() int { return p.X + p.Y }
pt := point{1, 2, "a"}
counter := 3`); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		code      string
		want      []string // must be among the matches
		notWant   []string
		wantStart int
	}{
		{code: "fo", want: []string{"for"}, wantStart: 0},
		{code: "x := cou", want: []string{"counter"}, wantStart: 5},
		{code: "strings.Rep", want: []string{"Repeat", "ReplaceAll"}, wantStart: 8},
		{code: "pt.", want: []string{"X", "Y", "Norm", "label"}, notWant: []string{"Xlabel"}, wantStart: 3},
		{code: "ap", want: []string{"append"}},
		{code: "import \"math\"\nmath.Sq", want: []string{"Sqrt"}, wantStart: 19},
		{code: "mylocal := 1\nmyl", want: []string{"mylocal"}, wantStart: 13},
		{code: "str", want: []string{"strings", "strconv"}},
		{code: "__", notWant: []string{"__gptnotes"}},
		{code: "é := 1; é2 := pt.N", want: []string{"Norm"}, wantStart: 17},
	} {
		cursor := utf8.RuneCountInString(tc.code)
		matches, start, end := s.Complete(tc.code, cursor)
		for _, w := range tc.want {
			if !slices.Contains(matches, w) {
				t.Errorf("Complete(%q) = %v, lacks %q", tc.code, matches, w)
			}
		}
		for _, w := range tc.notWant {
			if slices.Contains(matches, w) {
				t.Errorf("Complete(%q) offers %q", tc.code, w)
			}
		}
		if tc.wantStart != 0 && start != tc.wantStart || end != cursor {
			t.Errorf("Complete(%q) range [%d,%d), want [%d,%d)", tc.code, start, end, tc.wantStart, cursor)
		}
	}
}

func TestInspect(t *testing.T) {
	s := newSession(t)
	if _, _, err := exec(t, s, `import "strings"
// area is the area of a w×h rectangle.
func area(w, h float64) float64 { return w * h }
ratio := 0.25
var b strings.Builder
type square struct{ side float64 }
// Area is the side squared.
func (s square) Area() float64 { return s.side * s.side }
sq := square{2}`); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		code   string
		cursor int
		want   []string
	}{
		{"strings.Repeat", 10, []string{"func Repeat(s string, count int) string", "Repeat returns a new string"}},
		{"b.Len()", 3, []string{"func (b *Builder) Len() int"}},
		{"fmt", 1, []string{"package fmt"}},
		{"area(1, 2)", 2, []string{"func area(w, h float64) float64", "area is the area"}},
		{"ratio", 5, []string{"ratio float64 = 0.25"}},
		{"sq.Area()", 5, []string{"func (s square) Area() float64", "Area is the side squared."}},
	} {
		data, found := s.Inspect(tc.code, tc.cursor, 0)
		text, _ := data["text/plain"].(string)
		if !found {
			t.Errorf("Inspect(%q) not found", tc.code)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("Inspect(%q) = %q, lacks %q", tc.code, text, w)
			}
		}
	}
	if _, found := s.Inspect("nosuchname", 3, 0); found {
		t.Errorf("Inspect(nosuchname) found something")
	}
}

func TestIsComplete(t *testing.T) {
	s := newSession(t)
	for _, tc := range []struct{ code, status, indent string }{
		{"x := 1", "complete", ""},
		{"func f() {", "incomplete", "\t"},
		{"for i := 0; i < 3; i++ {\n\tif i > 1 {", "incomplete", "\t\t"},
		{"x := 1 +", "incomplete", ""},
		{"s := `raw", "incomplete", ""},
		{"x := )", "invalid", ""},
		{"}", "invalid", ""},
		{"import \"fmt\"\nfmt.Println(1)", "complete", ""},
	} {
		status, indent := s.IsComplete(tc.code)
		if status != tc.status || indent != tc.indent {
			t.Errorf("IsComplete(%q) = %q %q, want %q %q", tc.code, status, indent, tc.status, tc.indent)
		}
	}
}
