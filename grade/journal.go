package grade

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The report is written as each submission ends, not once every kernel has: a grader that
// dies (a kill -9, the machine going down) keeps the grades it knew, and a rerun with the same
// --out grades only the submissions it did not. What a rerun needs to know a submission was
// graded, and to write its rows and summary line again, is kept in DIR/graded.jsonl, a line
// per submission appended as it ends:
//
//	{"student":"alice","submission":"3f2a…","against":"9c1d…","grades":[…],"notes":[…],…}
//
// A line counts only for the same student key, the same submission file (its SHA-256) and the
// same original notebook: a student who submits again, or a teacher who changes a check, gets
// a fresh grading. A line cut short by a crash is not read.

// journalName is the file under the report's directory that records each submission graded.
const journalName = "graded.jsonl"

// An entry is one line of the journal: one submission graded.
type entry struct {
	Student    string   `json:"student"`
	Submission string   `json:"submission"` // SHA-256 of the submission file, hex
	Against    string   `json:"against"`    // SHA-256 of the original notebook, hex
	Skipped    string   `json:"skipped,omitempty"`
	Warnings   []string `json:"warnings,omitempty"`
	Notes      []string `json:"notes,omitempty"`
	Stopped    string   `json:"stopped,omitempty"`
	Grades     []Grade  `json:"grades"`
	Seconds    float64  `json:"seconds"`
}

// A report is the output directory of one grading, written to as submissions end.
type report struct {
	dir, against string
	againstSum   string
	checks       []Check
	earlier      map[string]entry // by student key: the journal's last line for each

	mu      sync.Mutex
	results []*Result // in the order of the submissions; nil until known
	journal *os.File
}

// openReport reads dir's journal, if any, and opens it to append to. dir "" writes nothing.
func openReport(dir, against string, checks []Check, n int) (*report, error) {
	rp := &report{dir: dir, against: against, checks: checks, results: make([]*Result, n), earlier: map[string]entry{}}
	if dir == "" {
		return rp, nil
	}
	sum, err := fileSum(against)
	if err != nil {
		return nil, fmt.Errorf("grade: --against: %w", err)
	}
	rp.againstSum = sum
	if err := os.MkdirAll(filepath.Join(dir, "feedback"), 0o755); err != nil {
		return nil, fmt.Errorf("grade: %w", err)
	}
	path := filepath.Join(dir, journalName)
	if f, err := os.Open(path); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var e entry
			if json.Unmarshal(sc.Bytes(), &e) == nil && e.Student != "" {
				rp.earlier[e.Student] = e
			}
		}
		f.Close()
	}
	rp.journal, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("grade: %w", err)
	}
	return rp, nil
}

// gradedBefore is the result an earlier run recorded for this student and this submission
// file against this original, or nil.
func (rp *report) gradedBefore(student, path string) *Result {
	e, ok := rp.earlier[student]
	if !ok || e.Against != rp.againstSum || len(e.Grades) != len(rp.checks) {
		return nil
	}
	for i, k := range rp.checks {
		if e.Grades[i].Exercise != k.ID || e.Grades[i].Max != k.Points {
			return nil
		}
	}
	if sum, err := fileSum(path); err != nil || sum != e.Submission {
		return nil
	}
	r := &Result{Student: student, Path: path, Warnings: e.Warnings, Notes: e.Notes, Stopped: e.Stopped,
		Grades: e.Grades, Elapsed: time.Duration(e.Seconds * float64(time.Second)), Before: true}
	if e.Skipped != "" {
		r.Skipped = errors.New(e.Skipped)
	}
	return r
}

// add records result i: its feedback page (unless an earlier run wrote it), its journal line,
// then grades.csv and summary.md again with every result known so far.
func (rp *report) add(i int, r *Result) error {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	rp.results[i] = r
	if rp.dir == "" {
		return nil
	}
	if !r.Before {
		if err := writeFeedback(rp.dir, r); err != nil {
			return err
		}
		sum, _ := fileSum(r.Path) // "" for a file that is not a regular one: never matched
		e := entry{Student: r.Student, Submission: sum, Against: rp.againstSum, Warnings: r.Warnings,
			Notes: r.Notes, Stopped: r.Stopped, Grades: r.Grades, Seconds: r.Elapsed.Seconds()}
		if r.Skipped != nil {
			e.Skipped = r.Skipped.Error()
		}
		line, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("grade: journal: %w", err)
		}
		if _, err := rp.journal.Write(append(line, '\n')); err != nil { // one write: a whole line or a torn last one
			return fmt.Errorf("grade: journal: %w", err)
		}
	}
	var known []*Result
	for _, r := range rp.results {
		if r != nil {
			known = append(known, r)
		}
	}
	return writeTables(rp.dir, rp.against, rp.checks, known)
}

// close ends the journal.
func (rp *report) close() error {
	if rp.journal == nil {
		return nil
	}
	return rp.journal.Close()
}

// fileSum is the SHA-256 of a regular file's bytes, in hex (not of a link's target, which
// may be endless, /dev/zero).
func fileSum(path string) (string, error) {
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("grade: %s is not a regular file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}
