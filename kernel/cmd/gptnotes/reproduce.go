package main

import (
	"errors"
	"fmt"
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

// `gptnotes reproduce` runs the rows of MEASUREMENTS.md this machine can run, one after the
// other, draws the study's figures from what it measured, and writes report.md: per row the
// study's figure, ours, the model it came from, and the command that reproduces that row
// alone. The rows themselves are in reproduce_rows.go, in the order of MEASUREMENTS.md.

func init() {
	register(command{
		name:    "reproduce",
		summary: "re-run the study's measurements and write report.md with the figures",
		run:     runReproduce,
	})
}

// A study row: one line of MEASUREMENTS.md.
type studyRow struct {
	name    string // the --only key, e.g. "positions"
	section string // the MEASUREMENTS.md section it belongs to
	figure  string // what is measured, e.g. "positions pushed through the stack, 11-token prompt, 256 new tokens"
	study   string // the study's value
	kind    rowKind
	run     func(r *reproducer) (rowResult, error)
}

// rowKind says what a row needs to give a number.
type rowKind int

const (
	anyModel     rowKind = iota // arithmetic, init or timing: runs everywhere
	trainedModel                // a trained model: OpenAI's when found, else the shipped one
	openAIOnly                  // a property of OpenAI's checkpoint: no number without it
	fact                        // a statement of fact (no measurement)
)

// What a row measured.
type rowResult struct {
	ours    string   // our figure, as text with its numbers
	model   string   // the model it came from, e.g. "random init (seed 1, scaled)"
	figures []string // base names of the figures it wrote (NAME.png and NAME.svg)
	pages   []string // base names of the interactive figures it wrote (NAME.html)
}

// reproducer holds the run's settings and the models and measurements rows share.
type reproducer struct {
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

func runReproduce(args []string) error {
	fs := newFlags("reproduce", "[--weights PATH] [--out DIR] [--only NAME,…]",
		"Re-runs every row of the study (MEASUREMENTS.md) this machine can run and writes DIR/report.md\n"+
			"and the figures (PNG and SVG). Rows that need OpenAI's GPT-2 weights say so when they are not\n"+
			"found (see --weights). --only runs the named rows; `--only list` lists them.")
	out := fs.String("out", "reproduce-out", "directory for report.md and the figures")
	weights := fs.String("weights", "", "OpenAI's GPT-2 model.safetensors (default: search GPT2_WEIGHTS and the Hugging Face cache)")
	sample := fs.Int("sample", 16, "time the uncached loop on every k-th step (its cost depends only on the context length)")
	var only []string
	fs.Func("only", "run only these rows (comma-separated or repeated; `list` lists them)", func(s string) error {
		for _, n := range strings.Split(s, ",") {
			if n = strings.TrimSpace(n); n != "" {
				only = append(only, n)
			}
		}
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return err
	}
	// Names may also follow the flags: `reproduce --only config params`.
	if len(only) > 0 {
		only = append(only, fs.Args()...)
	} else if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (row names go after --only)", fs.Args())
	}
	rows := studyRows()
	if len(only) == 1 && only[0] == "list" {
		for _, r := range rows {
			fmt.Printf("%-20s %s\n", r.name, r.figure)
		}
		return nil
	}
	selected, err := selectRows(rows, only)
	if err != nil {
		return err
	}
	if *sample < 1 {
		return fmt.Errorf("--sample %d, want ≥ 1", *sample)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("reproduce: %w", err)
	}
	r := &reproducer{out: *out, weights: *weights, progress: os.Stderr, sampleK: *sample}
	return r.run(selected)
}

// selectRows keeps the rows named in only (all when only is empty), in study order.
func selectRows(rows []studyRow, only []string) ([]studyRow, error) {
	if len(only) == 0 {
		return rows, nil
	}
	want := map[string]bool{}
	for _, n := range only {
		want[n] = true
	}
	var sel []studyRow
	for _, r := range rows {
		if want[r.name] {
			sel = append(sel, r)
			delete(want, r.name)
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
	studyRow
	rowResult
	err     error
	elapsed time.Duration
}

// errNeedsWeights marks a row that cannot give a number without OpenAI's checkpoint, and
// errNeedsTrained one that needs a trained model, OpenAI's or the one shipped in testdata/.
var (
	errNeedsWeights = errors.New("needs OpenAI's GPT-2 weights")
	errNeedsTrained = errors.New("needs a trained model: OpenAI's GPT-2 or the shipped testdata/ model")
)

func (r *reproducer) run(rows []studyRow) error {
	start := time.Now()
	load := loadAverage()
	var reports []rowReport
	failed := 0
	for i, row := range rows {
		head := fmt.Sprintf("reproduce: [%2d/%d] %-20s ", i+1, len(rows), row.name)
		fmt.Fprint(r.progress, head)
		t0 := time.Now()
		r.lastNote, r.noted = t0, false
		var res rowResult
		var err error
		if row.kind == fact {
			res = rowResult{ours: "—", model: "—"}
		} else {
			res, err = row.run(r)
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
			fmt.Fprintf(r.progress, "%6.1fs  %s\n", el.Seconds(), firstLine(res.ours))
		}
		reports = append(reports, rowReport{row, res, err, el})
	}
	path := filepath.Join(r.out, "report.md")
	if err := os.WriteFile(path, []byte(r.report(reports, start, load)), 0o644); err != nil {
		return fmt.Errorf("reproduce: write report: %w", err)
	}
	fmt.Fprintf(r.progress, "reproduce: %d rows in %.1fs, report in %s\n", len(rows), time.Since(start).Seconds(), path)
	if failed > 0 {
		return fmt.Errorf("%d of %d rows failed (see %s)", failed, len(rows), path)
	}
	return nil
}

// report writes report.md: the machine, the models, one table of every row run, the figures.
func (r *reproducer) report(reports []rowReport, start time.Time, load string) string {
	var b strings.Builder
	b.WriteString("# gptnotes reproduce\n\n")
	fmt.Fprintf(&b, "Run %s, %.0f s; %s/%s, %d CPUs, load average %s at the start and %s at the end (timings share the CPUs with that load); %s; matrix products: %s.\n\n",
		start.UTC().Format("2006-01-02 15:04 UTC"), time.Since(start).Seconds(), runtime.GOOS, runtime.GOARCH,
		runtime.NumCPU(), load, loadAverage(), runtime.Version(), gpt.BLAS)
	if r.openaiTried {
		if r.openai != nil {
			fmt.Fprintf(&b, "OpenAI's GPT-2: %s.\n\n", r.openaiPath)
		} else {
			fmt.Fprintf(&b, "OpenAI's GPT-2: not found (%v); rows that need it say so.\n\n", r.openaiErr)
		}
	}
	b.WriteString("| row | figure | study | ours | model | command |\n|---|---|---|---|---|---|\n")
	for _, rep := range reports {
		ours := rep.ours
		switch {
		case errors.Is(rep.err, errNeedsWeights):
			ours = "needs OpenAI's GPT-2 weights (not found here)"
		case errors.Is(rep.err, errNeedsTrained):
			ours = rep.err.Error()
		case rep.err != nil:
			ours = "FAILED: " + rep.err.Error()
		}
		model := rep.model
		if model == "" {
			model = "—"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | `gptnotes reproduce --only %s` |\n",
			rep.name, cell(rep.figure), cell(rep.study), cell(ours), cell(model), rep.name)
	}
	var figs []string
	for _, rep := range reports {
		for _, f := range rep.figures {
			figs = append(figs, fmt.Sprintf("- %s: ![%s](%s.png) ([SVG](%s.svg))\n", rep.name, f, f, f))
		}
		for _, f := range rep.pages {
			figs = append(figs, fmt.Sprintf("- %s, interactive: [%s.html](%s.html)\n", rep.name, f, f))
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

// loadAverage is the 1-minute load average from /proc/loadavg, or "unknown".
func loadAverage() string {
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
func (r *reproducer) note(format string, args ...any) {
	if time.Since(r.lastNote) < 10*time.Second {
		return
	}
	r.lastNote, r.noted = time.Now(), true
	fmt.Fprintf(r.progress, "\n    … "+format, args...)
}

// save writes a figure as out/name.png and out/name.svg.
func (r *reproducer) save(f viz.Figure, name string) error {
	for _, ext := range []string{".png", ".svg"} {
		if err := viz.Save(f, filepath.Join(r.out, name+ext)); err != nil {
			return err
		}
	}
	return nil
}

// saveHTML writes an interactive figure as out/name.html, a page of its own.
func (r *reproducer) saveHTML(s *viz.Slider, name string) error {
	page := "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + s.Title + "</title></head><body>\n" +
		s.HTML() + "</body></html>\n"
	if err := os.WriteFile(filepath.Join(r.out, name+".html"), []byte(page), 0o644); err != nil {
		return fmt.Errorf("reproduce: write %s.html: %w", name, err)
	}
	return nil
}

// smallModel is GPT-2 small at GPT-2's init (seed 1, scaled), built once.
func (r *reproducer) smallModel() (*gpt.Model, error) {
	if r.small == nil {
		m, err := gpt.New(gpt.Small)
		if err != nil {
			return nil, err
		}
		m.Init(1, true)
		r.small = m
	}
	return r.small, nil
}

const smallRandom = "GPT-2 small, random init (seed 1, scaled)"
