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

func TestFuncBodyEnd(t *testing.T) {
	cases := []struct {
		name, src string
		want      string // src[:end]; "" when the body never closes
	}{
		{"simple", "func f() { return }\nfunc g() {}", "func f() { return }"},
		{"doc example", "func f() { s := \"}\" }\nfunc g() {}", "func f() { s := \"}\" }"},
		{"brace in a string", "func f() { s := \"}\"; _ = s }", "func f() { s := \"}\"; _ = s }"},
		{"brace in a raw string", "func f() { s := `{\n}}`; _ = s }xx", "func f() { s := `{\n}}`; _ = s }"},
		{"brace in a rune", "func f() { r := '}'; _ = r }", "func f() { r := '}'; _ = r }"},
		{"brace in a line comment", "func f() {\n\t// }\n}\n", "func f() {\n\t// }\n}"},
		{"brace in a block comment", "func f() { /* } */ }", "func f() { /* } */ }"},
		{"nested blocks and a closure", "func f() {\n\tif x {\n\t\tgo func() { y() }()\n\t}\n}\n// more", "func f() {\n\tif x {\n\t\tgo func() { y() }()\n\t}\n}"},
		{"composite literal", "func f() { _ = []int{1, 2} }", "func f() { _ = []int{1, 2} }"},
		{"struct type in the signature", "func f(x struct{ a int }) struct{} { return struct{}{} }", "func f(x struct{ a int }) struct{} { return struct{}{} }"},
		{"interface result", "func f() interface{} { return nil }", "func f() interface{} { return nil }"},
		{"after a header with a var block", "package p\n\nvar v = map[string]int{\"a\": 1}\n\n// f does { nothing\nfunc f() {\n}\nrest", "package p\n\nvar v = map[string]int{\"a\": 1}\n\n// f does { nothing\nfunc f() {\n}"},
		{"method", "func (r *R) M() { r.x++ }", "func (r *R) M() { r.x++ }"},
		{"never closes", "func f() {\n\tif x {\n\t}\n", ""},
		{"unterminated string", "func f() {\n\ts := \"}\n", ""},
		{"no function", "var x = struct{}{}", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			end, ok := funcBodyEnd(c.src)
			if !ok {
				if c.want != "" {
					t.Errorf("funcBodyEnd(%q) found no end, want %q", c.src, c.want)
				}
				return
			}
			if got := c.src[:end]; got != c.want {
				t.Errorf("funcBodyEnd(%q) = %d: %q, want %q", c.src, end, got, c.want)
			}
		})
	}
}

func TestParseFunc(t *testing.T) {
	cases := []struct {
		name, src string
		stmts     int
		ok        bool
	}{
		{"three statements", parsePrompt + "\n\tx := 1\n\tfmt.Println(x)\n\tos.Exit(0)\n}\n", 3, true},
		{"nested statements count once", parsePrompt + "\n\tif len(os.Args) > 1 {\n\t\tfmt.Println(1)\n\t\tfmt.Println(2)\n\t}\n}", 1, true},
		{"empty body", parsePrompt + "\n}", 0, true},
		{"syntax error", parsePrompt + "\n\tif !v.Errorf(\"g := make %v\", n.Tag\")\n}", 0, false},
		{"unbalanced", parsePrompt + "\n\tx := []int{1, 2\n}\n", 0, false},
		{"not closed", parsePrompt + "\n\tfmt.Println(\"}\")\n", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			end, closed := funcBodyEnd(c.src)
			stmts, ok := parseFunc(c.src, end, closed)
			if stmts != c.stmts || ok != c.ok {
				t.Errorf("parseFunc(%q) = %d, %v; want %d, %v", c.src[len(parsePrompt):], stmts, ok, c.stmts, c.ok)
			}
		})
	}
}

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
