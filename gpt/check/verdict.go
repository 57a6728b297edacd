package check

import (
	"errors"
	"fmt"
	"html"
	"math"
	"strings"
)

// Verdict is what a check found: whether the student's op gives the model's output on the
// inputs the checker chose and, if not, where it first differs and which known mistake,
// if any, gives the same output.
type Verdict struct {
	Op       string    // the op checked, e.g. "attention of one head"
	Case     string    // the inputs, e.g. `block 3, head 2, over the 11 tokens of "for i, v := range"`
	OK       bool      // the output matches the model's to Tol
	Tol      float64   // the tolerance: |yours − the model's| ≤ Tol·max(1, |the model's|)
	MaxDiff  float64   // the largest |yours − the model's|; NaN when the shape is wrong or yours has NaN
	Where    string    // where MaxDiff is, e.g. "head 2, query 5, key 3"
	Problem  string    // what is wrong, in words; "" when OK
	Mistake  string    // the known mistake whose output yours equals, e.g. "the mask on the wrong triangle: …"; "" if none
	Yours    []float32 // the row of your output where it first differs (nil when OK or the shape is wrong)
	Model    []float32 // the same row of the model's output
	FirstCol int       // the column of the first difference in that row
	Ref      string    // whose output yours is compared with; "" means the model's
	Exact    bool      // the output is ids, compared exactly (Tol and MaxDiff unused)
}

// ref is whose output the student's is compared with, for the verdict's sentences.
func (v *Verdict) ref() string {
	if v.Ref != "" {
		return v.Ref
	}
	return "the model's"
}

// String says the verdict in a sentence or three: "right: attention of one head matches
// the model's to 1e-5 …", or "not yet: attention of one head, on …: differs first at …".
func (v *Verdict) String() string {
	if v.OK && v.Exact {
		return fmt.Sprintf("right: %s gives %s output exactly, on %s.", v.Op, v.ref(), v.Case)
	}
	if v.OK {
		return fmt.Sprintf("right: %s matches %s to %.0e on %s (largest difference %.2g, at %s).", v.Op, v.ref(), v.Tol, v.Case, v.MaxDiff, v.Where)
	}
	s := fmt.Sprintf("not yet: %s, on %s: %s", v.Op, v.Case, v.Problem)
	if v.Mistake != "" {
		s += " It gives what a known mistake gives: " + v.Mistake
	}
	return s
}

// Err returns nil when the op is right, else an error whose message is String (it starts
// with "not yet: "). An exercise's check cell returns or panics with it.
func (v *Verdict) Err() error {
	if v.OK {
		return nil
	}
	return errors.New(v.String())
}

// Must panics with Err when the op is not right, so a check cell fails loudly; it returns
// the verdict to show when it is.
func (v *Verdict) Must() *Verdict {
	if err := v.Err(); err != nil {
		panic(err)
	}
	return v
}

// HTML shows the verdict in a cell: the sentence on green or orange, and when the output
// differs, the row where it first does, yours over the model's.
func (v *Verdict) HTML() string {
	var b strings.Builder
	color := "#e6f4ea"
	if !v.OK {
		color = "#fdecdc"
	}
	fmt.Fprintf(&b, `<div style="background:%s;padding:6px 10px;border-radius:4px">%s</div>`, color, html.EscapeString(v.String()))
	if v.Yours != nil {
		lo := max(0, v.FirstCol-3)
		hi := min(len(v.Model), lo+8)
		b.WriteString("<table><caption>the row where yours first differs</caption><tr><th>column</th>")
		for c := lo; c < hi; c++ {
			fmt.Fprintf(&b, "<td>%d</td>", c)
		}
		for _, r := range []struct {
			name string
			row  []float32
		}{{"yours", v.Yours}, {v.ref(), v.Model}} {
			fmt.Fprintf(&b, "</tr><tr><th>%s</th>", r.name)
			for c := lo; c < hi; c++ {
				style := ""
				if c == v.FirstCol {
					style = ` style="background:#f4a261"`
				}
				if c < len(r.row) {
					fmt.Fprintf(&b, "<td%s>%.4g</td>", style, r.row[c])
				} else {
					fmt.Fprintf(&b, "<td%s></td>", style)
				}
			}
		}
		b.WriteString("</tr></table>")
	}
	return b.String()
}

// grid is an op's output as rows: (T, HS) for attention, (T, T) for a pattern, one row of
// C per position for LayerNorm.
type grid [][]float32

// finite reports whether x is neither NaN nor ±Inf.
func finite(x float32) bool { return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) }

// near reports whether a is within tol of b, scaled by b's size; two non-finite values
// are near when they are the same (NaN and NaN, +Inf and +Inf).
func near(a, b float32, tol float64) bool {
	if !finite(a) || !finite(b) {
		return a == b || (a != a && b != b)
	}
	return math.Abs(float64(a)-float64(b)) <= tol*math.Max(1, math.Abs(float64(b)))
}

// shapeOf writes a grid's shape in words: "9 rows of 32", or "9 rows, of lengths 32 … 64".
func shapeOf(g grid) string {
	if len(g) == 0 {
		return "no rows"
	}
	lo, hi := len(g[0]), len(g[0])
	for _, r := range g {
		lo, hi = min(lo, len(r)), max(hi, len(r))
	}
	if lo == hi {
		return fmt.Sprintf("%d rows of %d", len(g), lo)
	}
	return fmt.Sprintf("%d rows, of lengths %d … %d", len(g), lo, hi)
}

// sameShape reports whether two grids have the same rows and lengths.
func sameShape(a, b grid) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
	}
	return true
}

// compare fills v from yours against the model's output: the shape, the first value out of
// tolerance and the largest difference. where names an element, e.g. "query 5, dim 3";
// dims names the shape, e.g. "T × HS".
func (v *Verdict) compare(yours, model grid, where func(r, c int) string, dims string) {
	if !sameShape(yours, model) {
		v.Problem = fmt.Sprintf("the shape is wrong: yours has %s, %s %s (%s).", shapeOf(yours), v.ref(), shapeOf(model), dims)
		v.MaxDiff = math.NaN()
		return
	}
	first := [2]int{-1, -1}
	v.MaxDiff = 0
	for r := range model {
		for c, m := range model[r] {
			y := yours[r][c]
			if !near(y, m, v.Tol) && first[0] < 0 {
				first = [2]int{r, c}
			}
			d := math.Abs(float64(y) - float64(m))
			switch {
			case y == m || !finite(y) && !finite(m) && near(y, m, v.Tol): // −Inf where the model's is −Inf (the mask), NaN where it is NaN
				d = 0
			case !finite(y) && finite(m):
				d = math.NaN()
			}
			if math.IsNaN(d) && !math.IsNaN(v.MaxDiff) || d > v.MaxDiff {
				v.MaxDiff, v.Where = d, where(r, c)
			}
		}
	}
	if first[0] < 0 {
		v.OK = true
		if v.Where == "" {
			v.Where = where(0, 0)
		}
		return
	}
	r, c := first[0], first[1]
	v.Yours, v.Model, v.FirstCol = yours[r], model[r], c
	v.Problem = fmt.Sprintf("differs first at %s: yours %.4g, %s %.4g", where(r, c), yours[r][c], v.ref(), model[r][c])
	if math.IsNaN(v.MaxDiff) {
		v.Problem += "; yours has NaN or ±Inf (first at " + v.Where + ")."
	} else {
		v.Problem += fmt.Sprintf("; the largest difference is %.3g, at %s.", v.MaxDiff, v.Where)
	}
}

// mistake is a known wrong way to write an op: its name and explanation, and its output on
// the case's inputs.
type mistake struct {
	says string // e.g. "no max-subtraction: exp overflows for large scores, giving NaN"
	out  grid
}

// recognise sets v.Mistake to the first mistake whose output yours matches (see matches)
// and the model's does not. The order of mistakes matters only when yours is non-finite
// almost everywhere; the first case a wrong op fails on is the one diagnosed, so the
// overflow case is reached only by an op right on the model's own scores.
func (v *Verdict) recognise(yours, model grid, mistakes []mistake) {
	for _, m := range mistakes {
		if sameShape(m.out, model) && matches(model, m.out, v.Tol) {
			continue // the mistake makes no difference on these inputs
		}
		if sameShape(m.out, yours) && matches(yours, m.out, v.Tol) {
			v.Mistake = m.says
			return
		}
	}
}

// matches reports whether yours equals a mistake's output as recognise means it: near
// wherever both are finite, non-finite wherever the mistake's is, and non-finite somewhere
// only if the mistake's is (yours in float32 may overflow where the mistake's float64 did not).
func matches(yours, m grid, tol float64) bool {
	badY, badM := false, false
	for r := range m {
		for c := range m[r] {
			x, y := yours[r][c], m[r][c]
			badY, badM = badY || !finite(x), badM || !finite(y)
			if finite(y) && finite(x) && !near(x, y, tol) || !finite(y) && finite(x) {
				return false
			}
		}
	}
	return badY == badM
}

// call runs the student's function, turning a panic into a message.
func call(f func()) (panicked string) {
	defer func() {
		if r := recover(); r != nil {
			panicked = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}
