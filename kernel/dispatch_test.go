package kernel

import (
	"fmt"
	"testing"
)

func TestSelectHistory(t *testing.T) {
	all := []historyEntry{{1, "x := 1", ""}, {2, "x + 1", "2"}, {3, "x + 2", "3"}, {4, "x + 1", "2"}}
	n := func(i int) *int { return &i }
	cases := []struct {
		name string
		req  historyRequest
		want string
	}{
		{"tail 2", historyRequest{HistAccessType: "tail", N: n(2)}, "[[1 3 x + 2] [1 4 x + 1]]"},
		{"tail all", historyRequest{HistAccessType: "tail"}, "[[1 1 x := 1] [1 2 x + 1] [1 3 x + 2] [1 4 x + 1]]"},
		{"range", historyRequest{HistAccessType: "range", Session: 1, Start: 2, Stop: 4}, "[[1 2 x + 1] [1 3 x + 2]]"},
		{"range to end", historyRequest{HistAccessType: "range", Start: 4}, "[[1 4 x + 1]]"},
		{"range other session", historyRequest{HistAccessType: "range", Session: -1, Start: 1}, "[]"},
		{"search", historyRequest{HistAccessType: "search", Pattern: "x + ?"}, "[[1 2 x + 1] [1 3 x + 2] [1 4 x + 1]]"},
		{"search unique", historyRequest{HistAccessType: "search", Pattern: "x + ?", Unique: true}, "[[1 3 x + 2] [1 4 x + 1]]"},
		{"search n", historyRequest{HistAccessType: "search", Pattern: "*1", N: n(1)}, "[[1 4 x + 1]]"},
		{"search no match", historyRequest{HistAccessType: "search", Pattern: "y*"}, "[]"},
		{"output", historyRequest{HistAccessType: "tail", N: n(1), Output: true}, "[[1 4 [x + 1 2]]]"},
	}
	for _, c := range cases {
		if got := fmt.Sprint(selectHistory(all, c.req)); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

func TestGlobRegexp(t *testing.T) {
	for _, c := range []struct {
		glob, s string
		want    bool
	}{
		{"1 + ?", "1 + 2", true}, {"1 + ?", "1 + 22", false}, {"*Println*", "fmt.Println(\n1)", true},
		{"a.b", "axb", false}, {"(x)*", "(x) + 1", true},
	} {
		if got := globRegexp(c.glob).MatchString(c.s); got != c.want {
			t.Errorf("glob %q on %q = %v, want %v", c.glob, c.s, got, c.want)
		}
	}
}

func TestHelpTopic(t *testing.T) {
	for code, want := range map[string]string{
		"?fmt.Println": "fmt.Println", "fmt.Println?": "fmt.Println", "  ??display.HTML ": "display.HTML",
		"x := 1": "", "?": "", "a?\nb": "", `s := "?"`: "",
	} {
		got, ok := helpTopic(code)
		if got != want || ok != (want != "") {
			t.Errorf("helpTopic(%q) = %q, %v; want %q", code, got, ok, want)
		}
	}
}
