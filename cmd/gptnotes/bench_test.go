package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// benchArgs is a short run: the shipped model only, tiny sizes, a small memory probe.
var benchArgs = []string{"--models", "shipped", "--pp", "8,16", "--tg", "4", "--reps", "2", "--stream-mb", "8", "--quiet"}

// TestBenchTable checks the table's structure: the ceilings, one part per model headed by
// its load, a row per precision and test with a bound and a fraction, the roofline's points.
func TestBenchTable(t *testing.T) {
	var out, errb bytes.Buffer
	if err := runBench(benchArgs, &out, &errb); err != nil {
		t.Fatalf("bench: %v\n%s", err, errb.String())
	}
	s := out.String()
	for _, want := range []string{
		"## ceilings, the better of the run's start and end (load ", "; at the end ", "| memory stream | ", "## shipped: ", "| model | prec | size | test | runs | t/s |",
		"## roofline: shipped, fp32 products and attention over 16 positions (load ",
		"## decode step stages: shipped, fp32, median of 32 steps after 12 positions (load ",
		"## decode step stages: shipped, bf16, ", "| · blocks' products (4 a layer) | ", "| · the Generator's own work | ",
		"Paired: before each step the stream probe read the model's own weights (",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the table has no %q:\n%s", want, s)
		}
	}
	if errb.Len() > 0 {
		t.Errorf("--quiet wrote to stderr: %q", errb.String())
	}
	// A row: | shipped | fp32 | 29.7 MB | pp8 | 2 | 123.4 ± 5.6 | GFLOP/s | GB/s | bound | 12% |
	row := regexp.MustCompile(`(?m)^\| shipped \| (fp32|bf16) \| [0-9.]+ MB \| (pp8|pp16|tg4) \| 2 \| [0-9.]+ ± [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [^|]+ \| ([0-9]+%|—) \|$`)
	if got := len(row.FindAllString(s, -1)); got != 6 {
		t.Errorf("%d rows of shipped × {fp32, bf16} × {pp8, pp16, tg4}, want 6:\n%s", got, s)
	}
	// Points: five products, attention, and the model's rows as prompts and decode steps.
	point := regexp.MustCompile(`(?m)^\| (attn|mlp|lm_head|attention|prompt|decode step)[^|]* \| [0-9.]+ \| [0-9.]+ \| [^|]+ \| ([0-9]+%|—) \|$`)
	if got := len(point.FindAllString(s, -1)); got != 12 {
		t.Errorf("%d roofline points, want 12 (5 products, attention, 6 rows):\n%s", got, s)
	}
	// The bf16 peak: measured where the CPU has AVX-512 BF16, and said absent elsewhere.
	bf16Peak := strings.Contains(s, "| bf16 peak, 1 core | ")
	if !bf16Peak && !strings.Contains(s, "| bf16 peak | — | no AVX-512 BF16 on this CPU") {
		t.Errorf("the ceilings neither give a bf16 peak nor say there is none:\n%s", s)
	}
	// The forward over the whole block, against the peak of its precision: a row and a point
	// each; bf16's own peak where there is one, the FMA peak otherwise.
	bf16Bound := "FMA peak"
	if bf16Peak {
		bf16Bound = "bf16 peak"
	}
	for _, c := range []struct{ prec, bound string }{{"fp32", "FMA peak"}, {"bf16", bf16Bound}} {
		fwd := regexp.MustCompile(`(?m)^\| shipped \| ` + c.prec + ` \| [0-9.]+ MB \| fwd256 \| 2 \| [0-9.]+ ± [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| ` + c.bound + ` \| [0-9]+% \|$`)
		if got := len(fwd.FindAllString(s, -1)); got != 1 {
			t.Errorf("%d %s fwd256 rows against the %s, want 1:\n%s", got, c.prec, c.bound, s)
		}
		point := regexp.MustCompile(`(?m)^\| forward ` + c.prec + ` fwd256 \| [0-9.]+ \| [0-9.]+ \| ` + c.bound + ` \| [0-9]+% \|$`)
		if got := len(point.FindAllString(s, -1)); got != 1 {
			t.Errorf("%d %s fwd256 points against the %s, want 1:\n%s", got, c.prec, c.bound, s)
		}
	}
}

// TestBenchJSON checks --json: the ceilings, every row with its timings and bound, the load.
func TestBenchJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if err := runBench(append(benchArgs, "--json", "--points=false", "--forward=false", "--stages=false", "--precisions", "bf16"), &out, &errb); err != nil {
		t.Fatalf("bench --json: %v\n%s", err, errb.String())
	}
	var r struct {
		Machine  struct{ Cores int }
		Ceilings struct {
			StreamGBs  float64 `json:"stream_gbs"`
			PeakKernel string  `json:"peak_kernel"`
			PeakTotal  float64 `json:"peak_total_gflops"`
			BF16Kernel string  `json:"bf16_peak_kernel"`
			BF16Core   float64 `json:"bf16_peak_core_gflops"`
			BF16Total  float64 `json:"bf16_peak_total_gflops"`
		}
		Models []struct {
			Model string
			Load  []float64
			Rows  []struct {
				Precision, Test, Bound string
				RunSeconds             []float64 `json:"run_seconds"`
				TokensPerSec           float64   `json:"tokens_per_s"`
				FLOPs                  float64
				Bytes                  float64
			}
		}
		Roofline struct{ Points []any }
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("--json printed no JSON: %v\n%s", err, out.String())
	}
	if r.Machine.Cores < 1 || r.Ceilings.StreamGBs <= 0 || (r.Ceilings.PeakKernel != "") != (r.Ceilings.PeakTotal > 0) {
		t.Errorf("machine and ceilings: %+v %+v", r.Machine, r.Ceilings)
	}
	if hasBF16 := r.Ceilings.BF16Kernel != ""; hasBF16 != (r.Ceilings.BF16Core > 0) || hasBF16 != (r.Ceilings.BF16Total > 0) {
		t.Errorf("bf16 peak: kernel %q, %g GFLOP/s on a core, %g on all", r.Ceilings.BF16Kernel, r.Ceilings.BF16Core, r.Ceilings.BF16Total)
	}
	if len(r.Models) != 1 || r.Models[0].Model != "shipped" || len(r.Models[0].Rows) != 3 {
		t.Fatalf("models: %+v, want shipped with 3 rows (bf16 × pp8, pp16, tg4)", r.Models)
	}
	for i, row := range r.Models[0].Rows {
		if want := []string{"pp8", "pp16", "tg4"}[i]; row.Test != want || row.Precision != "bf16" {
			t.Errorf("row %d: %s %s, want bf16 %s", i, row.Precision, row.Test, want)
		}
		if len(row.RunSeconds) != 2 || row.TokensPerSec <= 0 || row.FLOPs <= 0 || row.Bytes <= 0 || row.Bound == "" {
			t.Errorf("row %d: %+v", i, row)
		}
		// A bf16 row bound by arithmetic is bound by the bf16 peak, where there is one.
		if r.Ceilings.BF16Kernel != "" && row.Bound != "memory stream" && !strings.HasPrefix(row.Bound, "bf16 peak") {
			t.Errorf("row %d: a bf16 row bound by %q with a bf16 peak measured", i, row.Bound)
		}
	}
	if len(r.Roofline.Points) != 0 {
		t.Errorf("--points=false, yet %d points", len(r.Roofline.Points))
	}
}

// TestBenchTestSeconds checks that --test-seconds stops the repetitions: each test runs once,
// but the forward over the whole block, whose figure is a median of all of them.
func TestBenchTestSeconds(t *testing.T) {
	var out bytes.Buffer
	args := []string{"--models", "shipped", "--precisions", "fp32", "--pp", "8", "--tg", "2", "--reps", "5",
		"--test-seconds", "1e-9", "--stream-mb", "8", "--points=false", "--stages=false", "--quiet", "--json"}
	if err := runBench(args, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Models []struct {
			Rows []struct {
				Test       string
				RunSeconds []float64 `json:"run_seconds"`
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || len(r.Models) != 1 || len(r.Models[0].Rows) != 3 {
		t.Fatalf("%v: %s", err, out.String())
	}
	for _, row := range r.Models[0].Rows {
		want := 1
		if row.Test == "fwd256" {
			want = 5
		}
		if len(row.RunSeconds) != want {
			t.Errorf("%s: %d runs, want %d (--reps 5 but --test-seconds 1e-9)", row.Test, len(row.RunSeconds), want)
		}
	}
}

func TestBenchFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--pp", "8,x"}, `--pp: "x" is not a positive size`},
		{[]string{"--tg", "0"}, `--tg: "0" is not a positive size`},
		{[]string{"--precisions", "fp16"}, `--precisions: "fp16"`},
		{[]string{"--models", "nope", "--stream-mb", "1", "--quiet"}, `unknown model "nope"`},
		{[]string{"extra"}, "unexpected arguments"},
	} {
		err := runBench(c.args, &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("bench %q: err = %v, want %q", c.args, err, c.want)
		}
	}
}
