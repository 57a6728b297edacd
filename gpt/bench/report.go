package bench

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
)

// Options says what Run measures; the zero value measures the defaults.
type Options struct {
	// Models are gpt.Preset names (their shapes at random init: the speed depends on the shape,
	// not the weights; no download) or "shipped", the model in testdata/ (gpt.ShippedModelPath).
	// Default: small, shipped.
	Models     []string
	Precisions []gpt.Precision // default FP32, BF16
	PP         []int           // prompt lengths, default 64, 512; longer than a model's context are skipped
	TG         []int           // tokens generated, default 32, 128
	Reps       int             // repetitions of each test, default 3
	// TestSeconds stops repeating a test once its runs have taken this long (a test runs at
	// least once), default 5 s: on a loaded machine a run keeps to its time, with fewer
	// repetitions (each row lists its runs).
	TestSeconds float64
	// StreamBytes is the buffer the memory probe reads, default 512 MiB: far larger than any
	// cache, so that it times the memory itself.
	StreamBytes int
	// Points, when true, also times the forward's products and attention of the first model's
	// shapes over its longest prompt, for the roofline (viz.Roofline).
	Points bool
	// Stages, when true, also splits a decode step of the first model, at each precision,
	// into its stages (blocks, attention, LayerNorm, output layer, the Generator's own
	// work), each against the memory stream; StageSteps is how many steps (default 32).
	Stages     bool
	StageSteps int
	// Forward, when true, also times a forward over each model's whole block, the logits of
	// every position (ForwardAll), as a row fwdN, its time the median of Reps: what a
	// training or scoring pass does, against the peak of its precision.
	Forward bool
	// Progress, if not nil, gets a line as each part starts.
	Progress io.Writer
}

func (o *Options) defaults() {
	if len(o.Models) == 0 {
		o.Models = []string{"small", "shipped"}
	}
	if len(o.Precisions) == 0 {
		o.Precisions = []gpt.Precision{gpt.FP32, gpt.BF16}
	}
	if len(o.PP) == 0 {
		o.PP = []int{64, 512}
	}
	if len(o.TG) == 0 {
		o.TG = []int{32, 128}
	}
	if o.Reps < 1 {
		o.Reps = 3
	}
	if o.TestSeconds <= 0 {
		o.TestSeconds = 5
	}
	if o.StreamBytes <= 0 {
		o.StreamBytes = 512 << 20
	}
	if o.StageSteps <= 0 {
		o.StageSteps = 32
	}
}

// Report is one run of the benchmark: the machine, its ceilings, every model's rows, and the
// roofline's points.
type Report struct {
	Date     string      `json:"date"` // UTC, e.g. "2026-12-04 15:10"
	Machine  Machine     `json:"machine"`
	Ceilings Ceilings    `json:"ceilings"`
	Models   []Part      `json:"models"`
	Stages   []StagePart `json:"stages,omitempty"` // a decode step's stages; with Options.Stages
	Roofline Part        `json:"roofline"`         // the points' part; empty unless Options.Points
	Seconds  float64     `json:"seconds"`          // the whole run
}

// A Part is one section of the run, headed by the load it started under.
type Part struct {
	Model  string    `json:"model"` // e.g. "small (random init)"
	About  string    `json:"about"` // its configuration, or its file
	Load   []float64 `json:"load"`
	Rows   []Row     `json:"rows,omitempty"`
	Points []Point   `json:"points,omitempty"`
	// Seconds is the part's wall time, loading the model included.
	Seconds float64 `json:"seconds"`
}

// Run measures the ceilings, then every model of o at every precision, then (with o.Points)
// the roofline's points.
func Run(o Options) (*Report, error) {
	o.defaults()
	start := time.Now()
	progress := func(format string, args ...any) {
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
		}
	}
	r := &Report{Date: start.UTC().Format("2006-01-02 15:04"), Machine: thisMachine()}
	progress("ceilings: memory stream over %s, FMA peak", gpt.MB(o.StreamBytes))
	r.Ceilings = measureCeilings(o.StreamBytes, 5, 200*time.Millisecond)
	llc := r.Machine.LLCBytes

	var firstModel *gpt.Model // the model whose shapes the roofline's points take
	for _, name := range o.Models {
		t0 := time.Now()
		m, label, about, err := openModel(name)
		if err != nil {
			return nil, err
		}
		if firstModel == nil {
			firstModel = m
		}
		part := Part{Model: label, About: about, Load: Load()}
		progress("%s: %s, load %v", label, about, part.Load)
		for _, p := range o.Precisions {
			rows, err := measureModel(m.WithPrecision(p), label, o.PP, o.TG, o.Reps, o.TestSeconds, llc, o.Forward)
			if err != nil {
				return nil, err
			}
			part.Rows = append(part.Rows, rows...)
		}
		part.Seconds = time.Since(t0).Seconds()
		r.Models = append(r.Models, part)
	}

	if o.Stages && firstModel != nil {
		for _, p := range o.Precisions {
			m := firstModel.WithPrecision(p)
			steps := min(o.StageSteps, m.Config.BlockSize-stageContext)
			sp := StagePart{Model: r.Models[0].Model, Load: Load(), InLLC: llc > 0 && m.WeightBytes() <= llc}
			progress("stages: %s %v, %d steps, load %v", sp.Model, p, steps, sp.Load)
			t0 := time.Now()
			d, err := gpt.MeasureDecodeStages(m, stageContext, steps)
			if err != nil {
				return nil, fmt.Errorf("bench: %s %v: %w", sp.Model, p, err)
			}
			sp.Stages, sp.Seconds = d, time.Since(t0).Seconds()
			r.Stages = append(r.Stages, sp)
		}
	}

	if o.Points && firstModel != nil {
		cfg := firstModel.Config
		N := 1
		for _, n := range o.PP {
			if n <= cfg.BlockSize {
				N = max(N, n)
			}
		}
		p := Part{Model: r.Models[0].Model, About: fmt.Sprintf("fp32 products and attention over %d positions", N), Load: Load()}
		progress("roofline: %s, %s, load %v", p.Model, p.About, p.Load)
		t0 := time.Now()
		p.Points = measureProducts(cfg, N, o.Reps, llc)
		for _, row := range r.Models[0].Rows {
			p.Points = append(p.Points, rowPoint(row))
		}
		p.Seconds = time.Since(t0).Seconds()
		r.Roofline = p
	}
	firstModel = nil

	// The ceilings again: on a shared machine a neighbour may have held the cores or the
	// memory the first time. Each is a limit, so the better of the two measurements stands.
	progress("ceilings again, load %v", Load())
	again := measureCeilings(o.StreamBytes, 5, 200*time.Millisecond)
	r.Ceilings = r.Ceilings.better(again)
	r.Ceilings.LoadAfter = again.Load
	for i := range r.Models {
		for j := range r.Models[i].Rows {
			row := &r.Models[i].Rows[j]
			r.Ceilings.bound(&row.Roof, row.Precision)
		}
	}
	for j := range r.Roofline.Points {
		pt := &r.Roofline.Points[j]
		r.Ceilings.bound(&pt.Roof, pt.Precision)
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// openModel opens a model by Options.Models's name: a preset at GPT-2's init (seed 1337), or
// the shipped model. It returns the model in fp32, its label and what it is.
func openModel(name string) (*gpt.Model, string, string, error) {
	if name == "shipped" {
		path, err := gpt.ShippedModelPath()
		if err != nil {
			return nil, "", "", fmt.Errorf("bench: %w", err)
		}
		m, _, err := gpt.Load(path)
		if err != nil {
			return nil, "", "", fmt.Errorf("bench: %w", err)
		}
		return m, "shipped", fmt.Sprintf("%s, %v", path, m.Config), nil
	}
	cfg := gpt.Preset(name)
	if cfg == (gpt.Config{}) {
		return nil, "", "", fmt.Errorf("bench: unknown model %q (a gpt.Preset name or \"shipped\")", name)
	}
	m, err := gpt.New(cfg)
	if err != nil {
		return nil, "", "", fmt.Errorf("bench: %s: %w", name, err)
	}
	m.Init(1337, true)
	return m, name + " (random init)", fmt.Sprintf("%v", cfg), nil
}

// WriteTable writes the report as text: the ceilings, then a table per model in the style of
// llama-bench (test, tokens/s as mean ± sd), each figure beside the ceiling that bounds it
// and its fraction of it, then the roofline's points. Each part is headed by its load.
func (r *Report) WriteTable(w io.Writer) error {
	var b strings.Builder
	m, c := r.Machine, r.Ceilings
	llc := "unknown"
	if m.LLCBytes > 0 {
		llc = fmt.Sprintf("%d MiB", m.LLCBytes>>20)
	}
	fmt.Fprintf(&b, "# gptnotes bench, %s UTC: %s, %d cores, BLAS %s, last-level cache %s\n\n", r.Date, m.Arch, m.Cores, m.BLAS, llc)
	fmt.Fprintf(&b, "## ceilings, the better of the run's start and end (load %s; at the end %s)\n\n", loadString(c.Load), loadString(c.LoadAfter))
	fmt.Fprintf(&b, "| ceiling | value | probe |\n|---|---:|---|\n")
	fmt.Fprintf(&b, "| memory stream | %.1f GB/s | %s read by %d cores, best of 5 twice |\n", c.StreamGBs, gpt.MB(c.StreamBytes), m.Cores)
	if c.PeakKernel == "" {
		fmt.Fprintf(&b, "| FMA peak | — | no peak kernel for this CPU (%s; amd64 needs AVX2 and FMA, and GPTNOTES_CPU not go): not measured, not guessed |\n", m.Arch)
	} else {
		fmt.Fprintf(&b, "| FMA peak, 1 core | %.1f GFLOP/s | %s |\n", c.PeakCore, c.PeakKernel)
		fmt.Fprintf(&b, "| FMA peak, %d cores | %.1f GFLOP/s | the same on every core at once |\n", m.Cores, c.PeakTotal)
		fmt.Fprintf(&b, "| ridge | %.1f FLOP/byte | below it memory binds, above it arithmetic |\n", c.Ridge())
	}
	if c.BF16PeakKernel == "" {
		fmt.Fprintf(&b, "| bf16 peak | — | no AVX-512 BF16 on this CPU (or GPTNOTES_CPU avx2 or go): bf16 products run on FMAs, the FMA peak bounds them |\n")
	} else {
		fmt.Fprintf(&b, "| bf16 peak, 1 core | %.1f GFLOP/s | %s |\n", c.BF16PeakCore, c.BF16PeakKernel)
		fmt.Fprintf(&b, "| bf16 peak, %d cores | %.1f GFLOP/s | the same on every core at once: the bound of bf16 rows |\n", m.Cores, c.BF16PeakTotal)
		fmt.Fprintf(&b, "| bf16 ridge | %.1f FLOP/byte | the same for bf16 |\n", c.RidgeBF16())
	}
	for _, p := range r.Models {
		fmt.Fprintf(&b, "\n## %s: %s (load %s; %.0f s)\n\n", p.Model, p.About, loadString(p.Load), p.Seconds)
		fmt.Fprintf(&b, "| model | prec | size | test | runs | t/s | GFLOP/s | GB/s | bound | of bound |\n")
		fmt.Fprintf(&b, "|---|---|---:|---|---:|---:|---:|---:|---|---:|\n")
		for _, row := range p.Rows {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %.1f ± %.1f | %.1f | %.1f | %s | %s |\n",
				row.Model, row.Precision, gpt.MB(row.WeightBytes), row.Test, len(row.RunSeconds), row.TokensPerSec, row.SD,
				row.GFLOPs(), row.GBs(), row.Bound, percent(row.Fraction))
		}
	}
	for _, p := range r.Stages {
		writeStages(&b, p, c.StreamGBs)
	}
	if p := r.Roofline; len(p.Points) > 0 {
		fmt.Fprintf(&b, "\n## roofline: %s, %s (load %s; %.0f s)\n\n", p.Model, p.About, loadString(p.Load), p.Seconds)
		fmt.Fprintf(&b, "| step | FLOP/byte | GFLOP/s | bound | of bound |\n|---|---:|---:|---|---:|\n")
		for _, pt := range p.Points {
			fmt.Fprintf(&b, "| %s | %.2f | %.1f | %s | %s |\n", pt.Name, pt.Intensity(), pt.GFLOPs(), pt.Bound, percent(pt.Fraction))
		}
	}
	fmt.Fprintf(&b, "\nbound: the roofline's min(peak, FLOP/byte × stream), the peak of a bf16 row being the bf16\n"+
		"peak where this CPU has one, else the FMA peak; bytes are the least a step must move (its\n"+
		"weights, cache, inputs and outputs); a model whose weights and cache fit in the last-level\n"+
		"cache is not bound by the memory stream, which is DRAM's. fwdN: a forward over N positions with\n"+
		"the logits of all, its time the median of the runs; the other rows' the mean. %.0f s in all.\n", r.Seconds)
	_, err := io.WriteString(w, b.String())
	return err
}

// Markdown is the report as WriteTable writes it, whose tables are Markdown: a notebook cell
// shows a *Report as formatted tables.
func (r *Report) Markdown() string {
	var b strings.Builder
	r.WriteTable(&b)
	return b.String()
}

// String is the report as text, the same tables.
func (r *Report) String() string { return r.Markdown() }

func loadString(load []float64) string {
	if len(load) == 0 {
		return "unknown"
	}
	var s []string
	for _, l := range load {
		s = append(s, fmt.Sprintf("%.2f", l))
	}
	return strings.Join(s, " ")
}

func percent(f float64) string {
	if f == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*f)
}
