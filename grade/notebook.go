package grade

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// A Notebook is the part of a Jupyter notebook (nbformat 4) grading reads.
type Notebook struct {
	Cells    []Cell
	Language string   // the kernelspec's language, e.g. "go"
	Warnings []string // what was read in place of what could not be, e.g. a cell's metadata
}

// A Cell is one cell of a notebook: its type, its source, and its nbgrader metadata.
type Cell struct {
	Type   string // "code", "markdown" or "raw"
	Source string
	Grade  *NbgraderMeta // nil for a cell without nbgrader metadata
	// MetaError says why the cell's nbgrader metadata could not be read ("" when it could);
	// Grade then holds only its grade_id, when that could be read.
	MetaError string
}

// NbgraderMeta is a cell's nbgrader metadata (schema version 3): a grade cell (a check) has
// Grade, GradeID and Points; a solution cell (an answer) has Solution and GradeID.
type NbgraderMeta struct {
	Grade    bool    `json:"grade"`
	Solution bool    `json:"solution"`
	Locked   bool    `json:"locked"`
	GradeID  string  `json:"grade_id"`
	Points   float64 `json:"points"`
}

// IsCheck reports whether c is a check cell: a code cell graded by nbgrader.
func (c Cell) IsCheck() bool {
	return c.Type == "code" && c.Grade != nil && c.Grade.Grade && c.Grade.GradeID != ""
}

// ErrNotNotebook is the error of a file that is not a notebook (wrapped with the reason).
var ErrNotNotebook = errors.New("grade: not a notebook")

// ReadNotebook reads and parses a notebook file.
func ReadNotebook(path string) (*Notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("grade: %w", err)
	}
	nb, err := ParseNotebook(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return nb, nil
}

// ParseNotebook parses a notebook's JSON; an error wraps ErrNotNotebook.
func ParseNotebook(data []byte) (*Notebook, error) {
	var raw struct {
		NBFormat *int `json:"nbformat"`
		Cells    []struct {
			CellType string          `json:"cell_type"`
			Source   json.RawMessage `json:"source"`
			Metadata struct {
				Nbgrader json.RawMessage `json:"nbgrader"`
			} `json:"metadata"`
		} `json:"cells"`
		Metadata struct {
			Kernelspec struct {
				Language string `json:"language"`
			} `json:"kernelspec"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotNotebook, err)
	}
	if raw.NBFormat == nil || *raw.NBFormat != 4 {
		return nil, fmt.Errorf("%w: no nbformat 4 (a .ipynb file of Jupyter's)", ErrNotNotebook)
	}
	nb := &Notebook{Language: raw.Metadata.Kernelspec.Language}
	for i, c := range raw.Cells {
		src, err := source(c.Source)
		if err != nil {
			return nil, fmt.Errorf("%w: cell %d: %v", ErrNotNotebook, i+1, err)
		}
		cell := Cell{Type: c.CellType, Source: src}
		cell.Grade, cell.MetaError = nbgrader(c.Metadata.Nbgrader)
		if cell.MetaError != "" {
			taken := "none"
			if cell.Grade != nil {
				taken = "grade_id " + strconv.Quote(cell.Grade.GradeID)
			}
			nb.Warnings = append(nb.Warnings, fmt.Sprintf("cell %d: its nbgrader metadata could not be read (%s): taken as %s",
				i+1, cell.MetaError, taken))
		}
		nb.Cells = append(nb.Cells, cell)
	}
	return nb, nil
}

// nbgrader reads a cell's nbgrader metadata. Metadata a submission carries is not trusted to be
// of the types nbgrader writes: when it is not, the cell keeps only its grade_id (a check cell
// is then matched by it, and run as the original), or no metadata, with the reason.
func nbgrader(raw json.RawMessage) (*NbgraderMeta, string) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, ""
	}
	var m NbgraderMeta
	err := json.Unmarshal(raw, &m)
	if err == nil {
		return &m, ""
	}
	why := err.Error()
	var id struct {
		GradeID string `json:"grade_id"`
	}
	if json.Unmarshal(raw, &id) == nil && id.GradeID != "" {
		return &NbgraderMeta{GradeID: id.GradeID}, why
	}
	return nil, why
}

// source reads a cell's source, which nbformat allows as one string or a list of lines.
func source(raw json.RawMessage) (string, error) {
	if len(raw) == 0 {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		return "", fmt.Errorf("source is neither a string nor a list of strings")
	}
	return strings.Join(lines, ""), nil
}

// Checks are the check cells of the original notebook, in order, each with the grade_id of the
// cell before it that has one (its answer), where a deleted check is put back.
func Checks(original *Notebook) ([]Check, error) {
	var out []Check
	seen := map[string]bool{}
	anchor := ""
	for _, c := range original.Cells {
		if c.IsCheck() {
			if seen[c.Grade.GradeID] {
				return nil, fmt.Errorf("grade: two check cells with grade_id %q", c.Grade.GradeID)
			}
			seen[c.Grade.GradeID] = true
			out = append(out, Check{ID: c.Grade.GradeID, Points: c.Grade.Points, Source: c.Source, After: anchor})
		}
		if c.Grade != nil && c.Grade.GradeID != "" {
			anchor = c.Grade.GradeID
		}
	}
	if len(out) == 0 {
		return nil, errors.New("grade: the original notebook has no check cells (nbgrader grade cells with a grade_id)")
	}
	return out, nil
}

// A Check is one check cell of the original notebook.
type Check struct {
	ID     string  // its grade_id, e.g. "ex05-softmax"
	Points float64 // what passing it is worth
	Source string  // the original code
	After  string  // the grade_id of the cell it follows (its answer cell), "" if none
}
