package grade

import (
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gptnotes/gptnotes/internal/atomicfile"
	"github.com/gptnotes/gptnotes/kernel"
)

// Write writes the report of a grading into dir: grades.csv (a row per student and check:
// student, exercise, points, max_points, message), summary.md (per exercise how many passed,
// per student the total) and feedback/STUDENT.html (the notebook as it ran, with each check's
// verdict under it). Run with Options.Out writes the same, as each submission ends.
func Write(dir string, against string, checks []Check, results []*Result) error {
	for _, r := range results {
		if err := writeFeedback(dir, r); err != nil {
			return err
		}
	}
	return writeTables(dir, against, checks, results)
}

// writeTables writes grades.csv and summary.md, each whole or not at all (atomicfile).
func writeTables(dir string, against string, checks []Check, results []*Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, "grades.csv"), func(f *os.File) error { return writeCSV(f, results) }); err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	summary := Summary(against, checks, results)
	if err := atomicfile.Write(filepath.Join(dir, "summary.md"), func(f *os.File) error {
		_, err := f.WriteString(summary)
		return err
	}); err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	return nil
}

// writeFeedback writes feedback/STUDENT.html, "a/alice" to feedback/a/alice.html.
func writeFeedback(dir string, r *Result) error {
	var b strings.Builder
	if err := feedback.Execute(&b, r); err != nil {
		return fmt.Errorf("grade: feedback for %s: %w", r.Student, err)
	}
	page := filepath.Join(dir, "feedback", filepath.FromSlash(r.Student)+".html")
	if err := os.MkdirAll(filepath.Dir(page), 0o755); err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	if err := os.WriteFile(page, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	return nil
}

// inert keeps a spreadsheet from reading a CSV field as a formula: a field that begins with
// = + - @ or a tab or carriage return gets a ' before it, as OWASP's advice on CSV injection has it.
func inert(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func writeCSV(f io.Writer, results []*Result) error {
	w := csv.NewWriter(f)
	w.Write([]string{"student", "exercise", "points", "max_points", "message"})
	for _, r := range results {
		for _, g := range r.Grades {
			w.Write([]string{inert(r.Student), inert(g.Exercise), fmt.Sprint(g.Points), fmt.Sprint(g.Max), inert(g.Message)})
		}
	}
	w.Flush()
	return w.Error()
}

// Summary is summary.md: per exercise how many submissions passed it, per student the total and
// why a run stopped, and the files that could not be graded.
func Summary(against string, checks []Check, results []*Result) string {
	var b strings.Builder
	var maxPoints float64
	for _, k := range checks {
		maxPoints += k.Points
	}
	graded := 0
	for _, r := range results {
		if r.Skipped == nil {
			graded++
		}
	}
	fmt.Fprintf(&b, "# Grades\n\n%d submissions graded against %s (%d checks, %g points)", graded,
		filepath.Base(against), len(checks), maxPoints)
	if n := len(results) - graded; n > 0 {
		fmt.Fprintf(&b, "; %d not graded", n)
	}
	b.WriteString(".\n\n## Per exercise\n\n| exercise | passed | points |\n|---|---:|---:|\n")
	for i, k := range checks {
		passed := 0
		for _, r := range results {
			if r.Skipped == nil && r.Grades[i].Passed {
				passed++
			}
		}
		fmt.Fprintf(&b, "| %s | %d of %d | %g |\n", k.ID, passed, graded, k.Points)
	}
	b.WriteString("\n## Per student\n\n| student | points | notes |\n|---|---:|---|\n")
	for _, r := range results {
		if r.Skipped != nil {
			fmt.Fprintf(&b, "| %s | – | not graded: %s |\n", cell(r.Student), cell(r.Skipped.Error()))
			continue
		}
		got, of := r.Total()
		notes := append([]string{}, r.Notes...)
		if r.Stopped != "" {
			notes = append(notes, "stopped: "+r.Stopped)
		}
		notes = append(notes, r.Warnings...)
		fmt.Fprintf(&b, "| %s | %g / %g | %s |\n", cell(r.Student), got, of, cell(strings.Join(notes, "; ")))
	}
	return b.String()
}

// cell makes s, text a submission may have chosen, fit in one cell of a Markdown table as
// text: no HTML (& < > as entities), no emphasis, code or link, no column break.
func cell(s string) string {
	s = markdownText.Replace(s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

var markdownText = strings.NewReplacer("\n", " ", "\r", " ", "&", "&amp;", "<", "&lt;", ">", "&gt;",
	"|", `\|`, "\\", `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`)

// pngURL is a display's PNG as a data: URL, or "" when it has none (or it is not base64).
func pngURL(o kernel.Output) template.URL {
	s, _ := o.Data["image/png"].(string)
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if _, err := base64.StdEncoding.DecodeString(s); err != nil {
		return ""
	}
	return template.URL("data:image/png;base64," + s)
}

func plainText(o kernel.Output) string {
	s, _ := o.Data["text/plain"].(string)
	return s
}

// feedback is a student's page. A student's notebook is untrusted: everything is escaped text
// (no HTML output of theirs is shown as HTML), and images are PNG data only.
var feedback = template.Must(template.New("feedback").Funcs(template.FuncMap{
	"png": pngURL, "plain": plainText,
	"total": func(r *Result) string { got, of := r.Total(); return fmt.Sprintf("%g / %g", got, of) },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Student}}: feedback</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
pre { white-space: pre-wrap; margin: 0.3rem 0; padding: 0.5rem; border-radius: 4px; }
.md pre { background: none; font-family: inherit; }
.code { background: #f4f4f4; border-left: 3px solid #999; }
.out { background: #fff; border-left: 3px solid #ddd; }
.err { background: #fff0f0; border-left: 3px solid #c33; }
.verdict { margin: 0.3rem 0 1.2rem; padding: 0.5rem 0.8rem; border-radius: 4px; font-weight: 600; }
.pass { background: #e6f6e6; color: #145214; }
.fail { background: #fde8e8; color: #7a1010; }
.note { font-weight: normal; }
.skipped { color: #888; font-style: italic; }
</style></head><body>
<h1>{{.Student}}</h1>
{{if .Skipped}}<p class="verdict fail">Not graded: {{.Skipped}}</p>{{else}}
<p>{{total .}} points.{{if .Stopped}} The run stopped: {{.Stopped}}.{{end}}</p>
{{range .Warnings}}<p class="note">{{.}}</p>{{end}}
{{range .Steps}}
{{if eq .Type "code"}}<pre class="code">{{.Source}}</pre>
{{if not .Ran}}{{if .Source}}<p class="skipped">not run</p>{{end}}{{end}}
{{range .Outputs}}{{if eq .Type "stream"}}<pre class="{{if eq .Name "stderr"}}err{{else}}out{{end}}">{{.Text}}</pre>
{{else if eq .Type "error"}}<pre class="err">{{.EName}}: {{.EValue}}</pre>
{{else if png .}}<img src="{{png .}}" alt="a figure the cell drew">
{{else}}<pre class="out">{{plain .}}</pre>{{end}}{{end}}
{{if and .Failure (not .Check)}}<pre class="err">{{.Failure}}</pre>{{end}}
{{with .Grade}}<div class="verdict {{if .Passed}}pass{{else}}fail{{end}}">{{if .Passed}}✓{{else}}✗{{end}} {{.Exercise}}: {{.Points}} / {{.Max}} — {{.Message}}</div>{{end}}
{{if .Student}}<p class="note">Your version of this check cell, not run:</p><pre class="code">{{.Student}}</pre>{{end}}
{{else}}<div class="md"><pre>{{.Source}}</pre></div>{{end}}
{{end}}{{end}}
</body></html>
`))
