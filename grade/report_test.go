package grade

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Text a submission chose (its file's name, what its cells printed) reaches grades.csv as
// text, not a formula, and summary.md as text, not HTML or Markdown.
func TestReportEscapesStudentText(t *testing.T) {
	checks := []Check{{ID: "ex1", Points: 1}}
	r := &Result{Student: `=HYPERLINK("x")<img src=x onerror=alert(1)>`, Stopped: "*[a](javascript:x)* | `b`",
		Grades: []Grade{{Exercise: "ex1", Max: 1, Message: "@SUM(A1)"}}}
	dir := t.TempDir()
	if err := Write(dir, "07.ipynb", checks, []*Result{r}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(filepath.Join(dir, "grades.csv"))
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 2 || rows[1][0] != `'`+r.Student || rows[1][4] != "'@SUM(A1)" {
		t.Errorf("grades.csv: %q, %v", rows, err)
	}
	summary, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
	for _, bad := range []string{"<img", "[a]", "*[", "| `b`"} {
		if strings.Contains(string(summary), bad) {
			t.Errorf("summary.md holds %q:\n%s", bad, summary)
		}
	}
	if !strings.Contains(string(summary), `&lt;img src=x onerror=alert(1)&gt;`) {
		t.Errorf("summary.md lost the name:\n%s", summary)
	}
}
