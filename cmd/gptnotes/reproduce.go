package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/gptnotes/gptnotes/study"
)

// `gptnotes reproduce` parses its flags and runs the study's rows (package study), which
// write report.md and the figures.

func init() {
	register(command{
		name:    "reproduce",
		summary: "re-run the study's measurements and write report.md with the figures",
		run:     runReproduce,
	})
}

func runReproduce(args []string) error {
	fs := newFlags("reproduce", "[--weights PATH] [--out DIR] [--only NAME,…]",
		"Re-runs every row of the study (package study) this machine can run and writes DIR/report.md\n"+
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
	rows := study.Rows()
	if len(only) == 1 && only[0] == "list" {
		for _, r := range rows {
			fmt.Printf("%-20s %s\n", r.Name, r.Figure)
		}
		return nil
	}
	selected, err := study.Select(rows, only)
	if err != nil {
		return err
	}
	if *sample < 1 {
		return fmt.Errorf("--sample %d, want ≥ 1", *sample)
	}
	r := study.NewRun(study.Options{Out: *out, Weights: *weights, Progress: os.Stderr, SampleK: *sample})
	return r.Report(selected)
}
