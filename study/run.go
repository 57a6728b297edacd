package study

import (
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/tokenizer"
	"github.com/gptnotes/gptnotes/viz"
)

// A Row is one measurement of the study: what is measured, the study's value, and the
// function that measures ours.
type Row struct {
	Name    string // the --only key, e.g. "positions"
	Figure  string // what is measured, e.g. "positions pushed through the stack, 11-token prompt, 256 new tokens"
	Study   string // the study's value, with its source when it is not the study's own (see package reference)
	Kind    Kind   // what the row needs to give a number
	measure func(r *Run) (Result, error)
}

// Kind says what a row needs to give a number.
type Kind int

const (
	AnyModel     Kind = iota // arithmetic, init or timing: runs everywhere
	TrainedModel             // a trained model: OpenAI's when found, else the shipped one
	OpenAIOnly               // a property of OpenAI's checkpoint: no number without it
	Fact                     // a statement of fact (no measurement)
)

// A Result is what a row measured. A notebook cell shows it as a line of text (String) or a
// small table (HTML); a test compares its Numbers with the study's.
type Result struct {
	Ours    string   // our figure, as text with its numbers
	Numbers []Number // the same figures as numbers, in the order the text gives them
	Model   string   // the model it came from, e.g. "random init (seed 1, scaled)"
	Figures []string // base names of the figures it wrote (NAME.png and NAME.svg)
	Pages   []string // base names of the interactive figures it wrote (NAME.html)
}

// A Number is one figure of a Result, named, with its unit.
type Number struct {
	Name  string  // what it is, e.g. "uncached positions"
	Value float64 // e.g. 35456
	Unit  string  // e.g. "positions", "s", "bytes"; "" for a ratio or a plain count
}

// Value is the number called name, and whether the result has it.
func (r Result) Value(name string) (float64, bool) {
	for _, n := range r.Numbers {
		if n.Name == name {
			return n.Value, true
		}
	}
	return 0, false
}

// String is our figure and the model it came from.
func (r Result) String() string { return r.Ours + " (" + r.Model + ")" }

// HTML is the result as a two-row table, for a notebook cell.
func (r Result) HTML() string {
	return "<table><tr><th>ours</th><td>" + html.EscapeString(r.Ours) + "</td></tr><tr><th>model</th><td>" +
		html.EscapeString(r.Model) + "</td></tr></table>"
}

// Run holds the run's settings and the models and measurements rows share.
type Run struct {
	out      string    // output directory
	weights  string    // --weights, or "" to search with gpt.Find
	progress io.Writer // progress lines
	sampleK  int       // the uncached loop is timed on every k-th step
	lastNote time.Time // when the running row last reported progress
	noted    bool      // whether it did

	// Built on first use and shared by later rows.
	small       *gpt.Model                        // GPT-2 small, random init (seed 1, scaled)
	openai      *gpt.Model                        // OpenAI's GPT-2 small, if found
	openaiPath  string                            // where it was found
	openaiErr   error                             // why it was not
	openaiTried bool                              //
	shipped     *gpt.Model                        // the model shipped in testdata/, if found
	shippedPath string                            //
	shippedErr  error                             // why it was not
	decoder     gpt.Decoder                       // the trained model's tokenizer, when there is one
	encoder     interface{ Encode(string) []int } // the shipped model's tokenizer
	gpt2        *tokenizer.Tokenizer              // GPT-2's own tokenizer, loaded with OpenAI's weights
	logits      map[string][]float32              // OpenAI GPT-2's next-token logits by prompt
	counts      []viz.PositionCount               // gpt.Positions, drawn by the positions figure
	timings     []viz.DecodeTiming                // measured by the time-ratio row, drawn by the positions figure
	forward1024 time.Duration                     // one forward over 1,024 positions (the forward-1024 row)
}

// Select keeps the rows named in only (all when only is empty), in the study's order.
func Select(rows []Row, only []string) ([]Row, error) {
	if len(only) == 0 {
		return rows, nil
	}
	want := map[string]bool{}
	for _, n := range only {
		want[n] = true
	}
	var sel []Row
	for _, r := range rows {
		if want[r.Name] {
			sel = append(sel, r)
			delete(want, r.Name)
		}
	}
	if len(want) > 0 {
		var unknown []string
		for n := range want {
			unknown = append(unknown, n)
		}
		sort.Strings(unknown)
		return nil, fmt.Errorf("unknown rows %s (`gptnotes reproduce --only list` lists them)", strings.Join(unknown, ", "))
	}
	return sel, nil
}

// A finished row, for the report.
type rowReport struct {
	Row
	Result
	err     error
	elapsed time.Duration
}

// errNeedsWeights marks a row that cannot give a number without OpenAI's checkpoint, and
// errNeedsTrained one that needs a trained model, OpenAI's or the one shipped in testdata/.
var (
	errNeedsWeights = errors.New("needs OpenAI's GPT-2 weights")
	errNeedsTrained = errors.New("needs a trained Model: OpenAI's GPT-2 or the shipped testdata/ model")
)

// Options are the settings of a Run.
type Options struct {
	Out      string    // directory for report.md and the figures
	Weights  string    // OpenAI's GPT-2 (a model.safetensors or its directory), or "" to search with gpt.Find
	Progress io.Writer // a line per row as it runs (nil: none)
	SampleK  int       // time the uncached loop on every k-th step (0: 16)
}

// NewRun prepares a run of the study with the given options; its rows share the models they
// load.
func NewRun(o Options) *Run {
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	if o.SampleK < 1 {
		o.SampleK = 16
	}
	if o.Out == "" {
		o.Out = "."
	}
	return &Run{out: o.Out, weights: o.Weights, progress: o.Progress, sampleK: o.SampleK}
}

// Measure runs the row called name and returns what it measured (a notebook cell shows the
// Result); its figures are written to the run's directory.
func (r *Run) Measure(name string) (Result, error) {
	rows, err := Select(Rows(), []string{name})
	if err != nil {
		return Result{}, err
	}
	if rows[0].Kind == Fact {
		return Result{Ours: "—", Model: "—"}, nil
	}
	if err := os.MkdirAll(r.out, 0o755); err != nil {
		return Result{}, fmt.Errorf("study: %w", err)
	}
	return rows[0].measure(r)
}

// Report runs rows one after the other and writes report.md in the run's directory: per row
// the study's figure, ours, the model it came from and the command that reproduces it alone,
// then the figures. It fails when a row fails (a row that needs a model this machine does
// not have says so and does not fail).
func (r *Run) Report(rows []Row) error {
	if err := os.MkdirAll(r.out, 0o755); err != nil {
		return fmt.Errorf("study: %w", err)
	}
	start := time.Now()
	load := LoadAverage()
	var reports []rowReport
	failed := 0
	for i, row := range rows {
		head := fmt.Sprintf("reproduce: [%2d/%d] %-20s ", i+1, len(rows), row.Name)
		fmt.Fprint(r.progress, head)
		t0 := time.Now()
		r.lastNote, r.noted = t0, false
		var res Result
		var err error
		if row.Kind == Fact {
			res = Result{Ours: "—", Model: "—"}
		} else {
			res, err = row.measure(r)
		}
		el := time.Since(t0)
		if r.noted { // the row's progress notes took the line: start the result on a new one
			fmt.Fprint(r.progress, "\n"+head)
		}
		switch {
		case errors.Is(err, errNeedsWeights), errors.Is(err, errNeedsTrained):
			fmt.Fprintf(r.progress, "%6.1fs  %v\n", el.Seconds(), err)
		case err != nil:
			failed++
			fmt.Fprintf(r.progress, "%6.1fs  FAILED: %v\n", el.Seconds(), err)
		default:
			fmt.Fprintf(r.progress, "%6.1fs  %s\n", el.Seconds(), firstLine(res.Ours))
		}
		reports = append(reports, rowReport{row, res, err, el})
	}
	path := filepath.Join(r.out, "report.md")
	if err := os.WriteFile(path, []byte(r.report(reports, start, load)), 0o644); err != nil {
		return fmt.Errorf("study: write report: %w", err)
	}
	fmt.Fprintf(r.progress, "reproduce: %d rows in %.1fs, report in %s\n", len(rows), time.Since(start).Seconds(), path)
	if failed > 0 {
		return fmt.Errorf("%d of %d rows failed (see %s)", failed, len(rows), path)
	}
	return nil
}

// report writes report.md: the machine, the models, one table of every row run, the figures.
func (r *Run) report(reports []rowReport, start time.Time, load string) string {
	var b strings.Builder
	b.WriteString("# gptnotes reproduce\n\n")
	fmt.Fprintf(&b, "Run %s, %.0f s; %s/%s, %d CPUs, load average %s at the start and %s at the end (timings share the CPUs with that load); %s; matrix products: %s.\n\n",
		start.UTC().Format("2006-01-02 15:04 UTC"), time.Since(start).Seconds(), runtime.GOOS, runtime.GOARCH,
		runtime.NumCPU(), load, LoadAverage(), runtime.Version(), gpt.BLAS)
	if r.openaiTried {
		if r.openai != nil {
			fmt.Fprintf(&b, "OpenAI's GPT-2: %s.\n\n", r.openaiPath)
		} else {
			fmt.Fprintf(&b, "OpenAI's GPT-2: not found (%v); rows that need it say so.\n\n", r.openaiErr)
		}
	}
	b.WriteString("| row | figure | study | ours | model | command |\n|---|---|---|---|---|---|\n")
	for _, rep := range reports {
		ours := rep.Ours
		switch {
		case errors.Is(rep.err, errNeedsWeights):
			ours = "needs OpenAI's GPT-2 weights (not found here)"
		case errors.Is(rep.err, errNeedsTrained):
			ours = rep.err.Error()
		case rep.err != nil:
			ours = "FAILED: " + rep.err.Error()
		}
		model := rep.Model
		if model == "" {
			model = "—"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | `gptnotes reproduce --only %s` |\n",
			rep.Name, cell(rep.Figure), cell(rep.Study), cell(ours), cell(model), rep.Name)
	}
	var figs []string
	for _, rep := range reports {
		for _, f := range rep.Figures {
			figs = append(figs, fmt.Sprintf("- %s: ![%s](%s.png) ([SVG](%s.svg))\n", rep.Name, f, f, f))
		}
		for _, f := range rep.Pages {
			figs = append(figs, fmt.Sprintf("- %s, interactive: [%s.html](%s.html)\n", rep.Name, f, f))
		}
	}
	if len(figs) > 0 {
		b.WriteString("\n## Figures\n\n")
		for _, f := range figs {
			b.WriteString(f)
		}
	}
	return b.String()
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "<br>")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// LoadAverage is the machine's 1-minute load average from /proc/loadavg, or "unknown": every
// measurement states the load it ran under.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

// note reports how far a long row has come, at most every 10 seconds, on a line of its own.
func (r *Run) note(format string, args ...any) {
	if time.Since(r.lastNote) < 10*time.Second {
		return
	}
	r.lastNote, r.noted = time.Now(), true
	fmt.Fprintf(r.progress, "\n    … "+format, args...)
}

// save writes a figure as out/name.png and out/name.svg.
func (r *Run) save(f viz.Figure, name string) error {
	for _, ext := range []string{".png", ".svg"} {
		if err := viz.Save(f, filepath.Join(r.out, name+ext)); err != nil {
			return err
		}
	}
	return nil
}

// saveHTML writes an interactive figure as out/name.html, a page of its own.
func (r *Run) saveHTML(s *viz.Slider, name string) error {
	page := "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + s.Title + "</title></head><body>\n" +
		s.HTML() + "</body></html>\n"
	if err := os.WriteFile(filepath.Join(r.out, name+".html"), []byte(page), 0o644); err != nil {
		return fmt.Errorf("study: write %s.html: %w", name, err)
	}
	return nil
}
