package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/gpt/bench"
)

// `gptnotes bench` parses its flags and runs package gpt/bench: the machine's ceilings, then
// prompt processing and generation as fractions of them, as a table or as JSON.

func init() {
	register(command{
		name:    "bench",
		summary: "measure this machine's ceilings and the model's speed as a fraction of them",
		run:     func(args []string) error { return runBench(args, os.Stdout, os.Stderr) },
	})
}

func runBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", "[--models small,shipped] [--pp 64,512] [--tg 32,128] [--json] …",
		"Measures the machine's two ceilings (the memory stream bandwidth; the FMA peak on one core and on\n"+
			"all, where this CPU has a peak kernel, and the bf16 peak where it has AVX-512 BF16, which bounds\n"+
			"the bf16 rows), then prompt processing (ppN: an N-token prompt in one\n"+
			"forward) and generation (tgN: N tokens one cached step at a time) for each model in fp32 and\n"+
			"bf16, each as tokens/s and as a fraction of the ceiling that bounds it. Models are gpt presets at\n"+
			"random init (no download) or \"shipped\", testdata/gopher.safetensors. About a minute with the\n"+
			"defaults on two cores. --json prints the measurements for a program.")
	fs.SetOutput(stderr)
	models := fs.String("models", "small,shipped", "comma-separated: gpt preset names (random init) or shipped")
	precisions := fs.String("precisions", "fp32,bf16", "comma-separated: fp32, bf16")
	pp := fs.String("pp", "64,512", "prompt lengths (longer than a model's context are skipped)")
	tg := fs.String("tg", "32,128", "tokens to generate")
	reps := fs.Int("reps", 3, "repetitions of each test")
	testSeconds := fs.Float64("test-seconds", 5, "stop repeating a test once its runs took this long (it runs at least once)")
	streamMB := fs.Int("stream-mb", 512, "MiB the memory probe reads (far more than the last-level cache)")
	points := fs.Bool("points", true, "also time the forward's products and attention, the roofline's points")
	stages := fs.Bool("stages", true, "also split a decode step of the first model into its stages, against the memory stream")
	stageSteps := fs.Int("stage-steps", 32, "decode steps the stages are timed over (the median)")
	forward := fs.Bool("forward", true, "also time a forward over each model's whole block, every position's logits (fwdN)")
	asJSON := fs.Bool("json", false, "print the report as JSON instead of tables")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	o := bench.Options{Models: splitList(*models), Reps: *reps, TestSeconds: *testSeconds, StreamBytes: *streamMB << 20, Points: *points,
		Stages: *stages, StageSteps: *stageSteps, Forward: *forward}
	var err error
	if o.PP, err = intList("pp", *pp); err != nil {
		return err
	}
	if o.TG, err = intList("tg", *tg); err != nil {
		return err
	}
	for _, s := range splitList(*precisions) {
		switch s {
		case "fp32":
			o.Precisions = append(o.Precisions, gpt.FP32)
		case "bf16":
			o.Precisions = append(o.Precisions, gpt.BF16)
		default:
			return fmt.Errorf("--precisions: %q, want fp32 or bf16", s)
		}
	}
	if *reps < 1 || *streamMB < 1 {
		return fmt.Errorf("--reps %d, --stream-mb %d: want ≥ 1", *reps, *streamMB)
	}
	if !*quiet {
		o.Progress = stderr
	}
	r, err := bench.Run(o)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		return enc.Encode(r)
	}
	return r.WriteTable(stdout)
}

// splitList splits a comma-separated flag, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// intList parses a comma-separated list of positive sizes.
func intList(flag, s string) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--%s: %q is not a positive size", flag, f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--%s: no sizes", flag)
	}
	return out, nil
}
