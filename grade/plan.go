package grade

import "strings"

// A Step is one cell of what a submission runs and shows, in order: one of its own cells, or an
// original check cell it lacked, put back.
type Step struct {
	Type    string // "code", "markdown" or "raw"; only code runs
	Source  string // what runs (for a check, the original's code)
	Check   *Check // the check this cell is, nil for any other cell
	Note    string // for a check the student changed or deleted: what was done about it
	Student string // the student's version of a changed check cell
}

// Notes of a check cell the student changed or deleted.
const (
	NoteChanged = "this check cell was changed: the original was run"
	NoteDeleted = "this check cell was missing: the original was put back here and run"
	NoteMeta    = "this check cell's nbgrader metadata could not be read: the original was run"
)

// Plan lists what a submission runs: its cells in order, each check cell (matched by grade_id)
// with the original's code in place of the student's, and each check it lacks put back after
// the cell with the grade_id it followed in the original (its answer), or at the end when that
// is missing too. Of several cells with a check's grade_id (a copied cell), the last that is the
// original unchanged is the check, or else the last; the others run as ordinary cells.
func Plan(checks []Check, sub *Notebook) []Step {
	byID := map[string]*Check{}
	for i := range checks {
		byID[checks[i].ID] = &checks[i]
	}
	// at: the submission's cell that is each check, by grade_id.
	at, exact := map[string]int{}, map[string]bool{}
	for i, c := range sub.Cells {
		if c.Grade == nil || byID[c.Grade.GradeID] == nil {
			continue
		}
		id := c.Grade.GradeID
		if same := c.Type == "code" && normalize(c.Source) == normalize(byID[id].Source); same || !exact[id] {
			at[id], exact[id] = i, same
		}
	}
	// missingAfter: the deleted checks to put back after the cell with a grade_id ("" = at the end).
	missingAfter := map[string][]*Check{}
	ids := map[string]bool{}
	for _, c := range sub.Cells {
		if c.Grade != nil {
			ids[c.Grade.GradeID] = true
		}
	}
	for i := range checks {
		k := &checks[i]
		if _, ok := at[k.ID]; ok {
			continue
		}
		after := k.After
		if !ids[after] {
			after = ""
		}
		missingAfter[after] = append(missingAfter[after], k)
	}
	putBack := func(steps []Step, after string) []Step {
		for _, k := range missingAfter[after] {
			steps = append(steps, Step{Type: "code", Source: k.Source, Check: k, Note: NoteDeleted})
		}
		delete(missingAfter, after)
		return steps
	}

	var steps []Step
	for i, c := range sub.Cells {
		id := ""
		if c.Grade != nil {
			id = c.Grade.GradeID
		}
		if j, ok := at[id]; ok && j == i {
			k := byID[id]
			s := Step{Type: "code", Source: k.Source, Check: k}
			if c.Type != "code" || normalize(c.Source) != normalize(k.Source) {
				s.Note, s.Student = NoteChanged, c.Source
			}
			if c.MetaError != "" {
				s.Note = strings.TrimPrefix(s.Note+"; ", "; ") + NoteMeta + " (" + c.MetaError + ")"
			}
			steps = append(steps, s)
		} else {
			steps = append(steps, Step{Type: c.Type, Source: c.Source})
		}
		if id != "" {
			steps = putBack(steps, id)
		}
	}
	return putBack(steps, "")
}

// normalize is a cell's source as compared: line endings and surrounding space do not count.
func normalize(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
}
