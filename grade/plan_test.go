package grade

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// nb builds a notebook from cells written "grade_id:source" (a check when the id has no
// "-answer"), "code:source" or "md:text".
func nb(cells ...string) *Notebook {
	n := &Notebook{Language: "go"}
	for _, c := range cells {
		kind, src, _ := strings.Cut(c, ":")
		switch kind {
		case "code":
			n.Cells = append(n.Cells, Cell{Type: "code", Source: src})
		case "md":
			n.Cells = append(n.Cells, Cell{Type: "markdown", Source: src})
		default:
			meta := &NbgraderMeta{GradeID: kind, Solution: strings.HasSuffix(kind, "-answer")}
			if !meta.Solution {
				meta.Grade, meta.Locked, meta.Points = true, true, 1
			}
			n.Cells = append(n.Cells, Cell{Type: "code", Source: src, Grade: meta})
		}
	}
	return n
}

// show lists steps as "source" with a mark for a changed (~) or deleted (+) check.
func show(steps []Step) string {
	var out []string
	for _, s := range steps {
		mark := ""
		switch s.Note {
		case NoteChanged:
			mark = "~"
		case NoteDeleted:
			mark = "+"
		}
		out = append(out, mark+s.Source)
	}
	return strings.Join(out, " ")
}

func TestPlan(t *testing.T) {
	original := nb("code:setup", "a-answer:A?", "a:checkA", "md:text", "b-answer:B?", "b:checkB", "c-answer:C?", "c:checkC")
	checks, err := Checks(original)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(checks[1].ID, " after ", checks[1].After); got != "b after b-answer" {
		t.Errorf("check b: %s", got)
	}
	for _, c := range []struct {
		name string
		sub  *Notebook
		want string
	}{
		{"as given", nb("code:setup", "a-answer:A", "a:checkA", "md:text", "b-answer:B", "b:checkB", "c-answer:C", "c:checkC"),
			"setup A checkA text B checkB C checkC"},
		{"changed", nb("code:setup", "a-answer:A", "a:print right", "b-answer:B", "b:checkB\n", "c-answer:C", "c:checkC"),
			"setup A ~checkA B checkB C checkC"},
		{"deleted", nb("code:setup", "a-answer:A", "b-answer:B", "b:checkB", "c-answer:C"),
			"setup A +checkA B checkB C +checkC"},
		{"answer deleted too", nb("code:setup", "b-answer:B", "b:checkB", "code:extra"),
			"setup B checkB extra +checkA +checkC"},
		{"metadata stripped", nb("code:setup", "a-answer:A", "code:checkA", "b-answer:B", "b:checkB", "c-answer:C", "c:checkC"),
			"setup A +checkA checkA B checkB C checkC"},
		{"a check copied", nb("a:checkA", "a-answer:A", "a:checkA", "b-answer:B", "b:checkB", "c-answer:C", "c:checkC"),
			"checkA A checkA B checkB C checkC"}, // the second runs as the check
		{"a fake check added", nb("a-answer:A", "a:checkA", "a:print right", "b-answer:B", "b:checkB", "c-answer:C", "c:checkC"),
			"A checkA print right B checkB C checkC"},
		{"a check copied and changed", nb("a-answer:A", "a:print right", "a:print right", "b-answer:B", "b:checkB", "c-answer:C", "c:checkC"),
			"A print right ~checkA B checkB C checkC"},
	} {
		if got := show(Plan(checks, c.sub)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestParseNotebook(t *testing.T) {
	n, err := ParseNotebook([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"language": "go"}},
		"cells": [{"cell_type": "code", "source": ["a := 1\n", "a"], "metadata": {"nbgrader": {"grade": true, "grade_id": "x", "points": 2, "locked": true, "solution": false, "schema_version": 3}}},
		{"cell_type": "markdown", "source": "# hi", "metadata": {}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if n.Language != "go" || len(n.Cells) != 2 || n.Cells[0].Source != "a := 1\na" || !n.Cells[0].IsCheck() ||
		n.Cells[0].Grade.Points != 2 || n.Cells[1].Source != "# hi" || n.Cells[1].IsCheck() {
		t.Errorf("parsed %+v", n)
	}
	// Metadata of the wrong type: the cell keeps its grade_id when it can, and the notebook says so.
	n, err = ParseNotebook([]byte(`{"nbformat": 4, "cells": [{"cell_type": "code", "source": "x", "metadata": {"nbgrader": "yes"}},
		{"cell_type": "code", "source": "y", "metadata": {"nbgrader": {"grade": true, "grade_id": "ex1", "points": "1"}}}]}`))
	if err != nil || n.Cells[0].Grade != nil || n.Cells[1].Grade == nil || n.Cells[1].Grade.GradeID != "ex1" || len(n.Warnings) != 2 ||
		!strings.Contains(n.Warnings[1], `cell 2: its nbgrader metadata could not be read`) || !strings.Contains(n.Warnings[1], `taken as grade_id "ex1"`) {
		t.Errorf("odd metadata: %+v, %v", n, err)
	}
	for _, bad := range []string{`not json`, `{"cells": []}`, `{"nbformat": 4, "cells": [{"cell_type": "code", "source": 3}]}`, `[1]`} {
		if _, err := ParseNotebook([]byte(bad)); !errors.Is(err, ErrNotNotebook) {
			t.Errorf("%s: err %v, want ErrNotNotebook", bad, err)
		}
	}
}

func TestStudentNames(t *testing.T) {
	for _, c := range []struct{ paths, want []string }{
		{[]string{"subs/alice.ipynb", "subs/bob.ipynb"}, []string{"alice", "bob"}},
		{[]string{"nbg/carol/07-exercises.ipynb", "nbg/dan/07-exercises.ipynb"}, []string{"carol", "dan"}},
		// Names that collided once: the same file name in two folders, and a name that was the
		// suffix a collision got.
		{[]string{"s/a/alice.ipynb", "s/b/alice.ipynb", "s/alice-2.ipynb"}, []string{"a/alice", "b/alice", "alice-2"}},
		{[]string{"s/alice/07-exercises.ipynb", "s/alice.ipynb", "s/bob/07-exercises.ipynb"},
			[]string{"alice/07-exercises", "alice", "bob"}},
	} {
		got := StudentNames(c.paths, "notebooks/07-exercises.ipynb")
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.paths, got, c.want)
		}
		slices.Reverse(c.paths)
		slices.Reverse(got)
		if again := StudentNames(c.paths, "notebooks/07-exercises.ipynb"); !slices.Equal(again, got) {
			t.Errorf("%q: in reverse order %q, want %q", c.paths, again, got)
		}
	}
}

func TestReserved(t *testing.T) {
	original := &Notebook{Cells: []Cell{{Type: "code", Source: "import (\n\t\"fmt\"\n\ttk \"github.com/gptnotes/gptnotes/tokenizer\"\n)\n\nx := tk.Given()"}}}
	checks := []Check{{Source: "if got, want := countPairs(ids), tk.PairCounts(ids); len(got) != len(want) {\n\tpanic(fmt.Sprint(cfg.NumParams(), tk.Given(), x.tk.Field))\n}"}}
	want := []string{"github.com/gptnotes/gptnotes/tokenizer.PairCounts"}
	if got := Reserved(original, checks); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
