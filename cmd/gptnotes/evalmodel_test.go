package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestEvalModelOnTheShippedModel runs the whole report on the shipped model, with a few
// samples and windows so that it takes seconds.
func TestEvalModelOnTheShippedModel(t *testing.T) {
	if testing.Short() {
		t.Skip("forwards and samples the shipped model")
	}
	_, file, _, _ := runtime.Caller(0)
	model := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "gopher.safetensors")
	corpus := smallCorpus(t)
	var out bytes.Buffer
	figure := filepath.Join(t.TempDir(), "head.png")
	f := evalFlags{model: model, corpus: corpus, cache: "-", valBatches: 2, batch: 2, samples: 3, maxNew: 32,
		temperature: 0.8, topK: 200, greedyNew: 8, show: 1, headWindows: 2, headFigure: figure, gateSeqs: 8, gateN: 50}
	if err := evalModel(f, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log(out.String())
	if fi, err := os.Stat(figure); err != nil || fi.Size() < 1000 {
		t.Errorf("the head figure: %v", err)
	}
	for _, want := range []string{"validation: 1,024 tokens (", "nats/token", "bits/byte", "parse prompt:", "parse: 3 samples (seeds 1–3", `greedy "// Package bytes implements" → "`,
		"heads: 2 windows of 256", "heads, previous token score (TransformerLens's detector, over 2 windows):",
		"heads, induction score", "mean attention of a closing brace on its opening brace", "  best: layer ", "induction gate: 8 sequences of 50 random tokens", "  gate: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestEvalModelOnACheckpoint measures a run midway: a training checkpoint FILE.ckpt with
// its tokenizer FILE.ckpt.tok.
func TestEvalModelOnACheckpoint(t *testing.T) {
	corpus := smallCorpus(t)
	out := filepath.Join(t.TempDir(), "tiny.safetensors")
	if err := train(context.Background(), tinyFlags(corpus, out), &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var report bytes.Buffer
	f := evalFlags{model: out + ".ckpt", corpus: corpus, cache: "-", valBatches: 2, batch: 2, samples: 2, maxNew: 8,
		temperature: 0.8, topK: 200, greedyNew: 4}
	if err := evalModel(f, &report); err != nil {
		t.Fatalf("%v\n%s", err, report.String())
	}
	t.Log(report.String())
	for _, want := range []string{"training checkpoint at step 6", "validation: 128 tokens (", "parse: 2 samples"} {
		if !strings.Contains(report.String(), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}
