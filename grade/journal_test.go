package grade

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"
)

// A submission's rows are in grades.csv as soon as it is added, and a second report into the
// same directory finds it graded, unless its file or the original changed.
func TestReportJournal(t *testing.T) {
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "grades")
	against, alice, bob := filepath.Join(dir, "07.ipynb"), filepath.Join(dir, "alice.ipynb"), filepath.Join(dir, "bob.ipynb")
	for _, p := range []string{against, alice, bob} {
		if err := os.WriteFile(p, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checks := []Check{{ID: "ex1", Points: 1}, {ID: "ex2", Points: 2}}
	rp, err := openReport(out, against, checks, 2)
	if err != nil {
		t.Fatal(err)
	}
	r := &Result{Student: "alice", Path: alice, Notes: []string{"ex2: this check cell was changed"},
		Grades: []Grade{{Exercise: "ex1", Points: 1, Max: 1, Passed: true, Message: "right"}, {Exercise: "ex2", Max: 2, Message: "not yet: 3"}}}
	if err := rp.add(0, r); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(filepath.Join(out, "grades.csv"))
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 3 || rows[1][0] != "alice" || rows[2][4] != "not yet: 3" {
		t.Errorf("grades.csv after alice, before bob: %q, %v", rows, err)
	}
	if _, err := os.Stat(filepath.Join(out, "feedback", "alice.html")); err != nil {
		t.Errorf("alice's feedback page: %v", err)
	}
	if err := rp.close(); err != nil {
		t.Fatal(err)
	}

	again, err := openReport(out, against, checks, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer again.close()
	got := again.gradedBefore("alice", alice)
	if got == nil || !got.Before || got.Grades[0].Points != 1 || got.Grades[1].Message != "not yet: 3" || len(got.Notes) != 1 {
		t.Errorf("alice graded before: %+v", got)
	}
	if got := again.gradedBefore("bob", bob); got != nil {
		t.Errorf("bob was never graded, got %+v", got)
	}
	os.WriteFile(alice, []byte("submitted again"), 0o644)
	if got := again.gradedBefore("alice", alice); got != nil {
		t.Errorf("alice's new file is graded before: %+v", got)
	}
	os.WriteFile(alice, []byte(alice), 0o644)
	other, _ := openReport(out, bob, checks, 2) // another original
	defer other.close()
	if got := other.gradedBefore("alice", alice); got != nil {
		t.Errorf("alice against another notebook is graded before: %+v", got)
	}
}
