package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/interp"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// `gptnotes evalmodel` measures a model trained on Go source the same way every time, so
// the shipped model and its successors can be compared: the loss on the held-out files,
// whether its Go parses, and what greedy decoding writes. See the README's model card.

func init() {
	register(command{
		name:    "evalmodel",
		summary: "measure a model trained on Go source: validation loss, bits per byte, does its Go parse",
		run:     func(args []string) error { return runEvalModel(args, os.Stdout) },
	})
}

// parsePrompt is the start of a Go file up to the opening brace of a function's body: the
// prompt every sample of "does its Go parse?" continues.
const parsePrompt = `// Copyright 2025 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"os"
)

func main() {`

// greedyPrompts are continued greedily, to show what the model writes when it is sure.
var greedyPrompts = []string{
	"// Package bytes implements",
	"package main\n\nimport \"fmt\"\n\nfunc main() {",
	"func (r *Reader) Read(p []byte) (n int, err error) {",
}

// evalFlags are the settings of `gptnotes evalmodel`.
type evalFlags struct {
	model, corpus, cache string
	valBatches, batch    int
	samples, maxNew      int
	temperature          float64
	topK, greedyNew      int
	show                 int
	headWindows          int
	headFigure           string
	gateSeqs, gateN      int
}

func runEvalModel(args []string, stdout io.Writer) error {
	fs := newFlags("evalmodel", "[flags] [MODEL]", `Measures a model trained on Go source (default testdata/gopher.safetensors; a model file
written by `+"`gptnotes train`"+` with its tokenizer beside it, or a training checkpoint FILE.ckpt
with FILE.ckpt.tok), always the same way:

  - the loss on the held-out files of the corpus (the split `+"`gptnotes train`"+` uses), in nats per
    token and in bits per byte, which does not depend on the vocabulary;
  - does its Go parse: samples with seeds 1…N from a prompt that ends at the opening brace
    of func main, each cut where that body closes (found with go/scanner, so braces in
    strings, runes and comments do not count) or after --max-new tokens; how many go/parser
    accepts as a function declaration, and how many of those have at least 3 statements;
  - greedy continuations of three fixed prompts;
  - its heads: TransformerLens's previous-token, duplicate-token and induction scores, and
    how much each attends from a closing brace to its opening one, over windows of the
    held-out files; the best of each, and with --head-figure the brace head's pattern on a
    short function;
  - the induction gate: on random tokens repeated, is the second copy's loss at most half
    the first's, and is there an induction head and a previous-token head scoring ≥ 0.5?

  gptnotes evalmodel testdata/gopher.safetensors`)
	var f evalFlags
	fs.StringVar(&f.corpus, "corpus", gpt.GoSourceDir(), "the corpus the model was trained on; its held-out files are measured")
	fs.StringVar(&f.cache, "cache", "", "token cache directory (default: the user cache dir; - for none)")
	fs.IntVar(&f.valBatches, "val-batches", 0, "validation batches of --batch windows of the block size, spread over the held-out files (0: every window)")
	fs.IntVar(&f.batch, "batch", 8, "windows per validation forward")
	fs.IntVar(&f.samples, "samples", 100, "samples for \"does its Go parse?\", seeds 1…N")
	fs.IntVar(&f.maxNew, "max-new", 256, "most tokens a sample may add")
	fs.Float64Var(&f.temperature, "temperature", 0.8, "sampling temperature")
	fs.IntVar(&f.topK, "top-k", 200, "sample from the k most probable tokens")
	fs.IntVar(&f.greedyNew, "greedy-new", 64, "tokens of each greedy continuation")
	fs.IntVar(&f.show, "show", 3, "print this many of the samples that parse")
	fs.IntVar(&f.headWindows, "head-windows", 16, "windows of held-out text the heads are scored on (0: skip)")
	fs.StringVar(&f.headFigure, "head-figure", "", "write the best brace head's pattern on a short function to this PNG")
	fs.IntVar(&f.gateSeqs, "gate-seqs", 8, "sequences of random tokens for the induction gate (0: skip)")
	fs.IntVar(&f.gateN, "gate-n", 50, "random tokens per copy in the induction gate")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		path, err := gpt.ShippedModelPath()
		if err != nil {
			return err
		}
		f.model = path
	case 1:
		f.model = fs.Arg(0)
	default:
		return fmt.Errorf("one model at a time, got %q", fs.Args())
	}
	return evalModel(f, stdout)
}

func evalModel(f evalFlags, w io.Writer) error {
	m, tok, desc, err := loadForEval(f.model)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "model: %s\n", desc)

	// 1. The loss on the held-out files.
	t0 := time.Now()
	corpus, err := gpt.OpenTokenized(f.corpus, tok, gpt.CorpusOptions{CacheDir: f.cache})
	if err != nil {
		return err
	}
	v, err := validationLoss(m, tok, corpus.Val, f.batch, f.valBatches)
	if err != nil {
		return err
	}
	nVal := 0
	for _, file := range corpus.Files {
		if file.Val {
			nVal++
		}
	}
	fmt.Fprintf(w, "validation: %s tokens (%s bytes) in %d windows of %d over %d held-out files of %s (%s tokens in all): %.4f nats/token, %.4f bits/byte (%s)\n",
		gpt.Commas(v.tokens), gpt.Commas(v.bytes), v.windows, m.Config.BlockSize, nVal, f.corpus, gpt.Commas(len(corpus.Val)),
		v.loss, v.bitsPerByte, time.Since(t0).Round(time.Second))

	// 2. Does its Go parse?
	t0 = time.Now()
	prompt := tok.Encode(parsePrompt)
	var pieces []string
	for _, id := range prompt {
		pieces = append(pieces, fmt.Sprintf("%q", tok.Token(id)))
	}
	fmt.Fprintf(w, "parse prompt: %q\n  %d tokens: %s\n", parsePrompt, len(prompt), strings.Join(pieces, " "))
	p := gpt.Policy{Temperature: f.temperature, TopK: f.topK}
	var parsed, long, closed, shown int
	for seed := 1; seed <= f.samples; seed++ {
		p.Seed = uint64(seed)
		text, err := sampleFunc(m, tok, prompt, p, f.maxNew)
		if err != nil {
			return err
		}
		end, ok := funcBodyEnd(text)
		if ok {
			closed++
		}
		stmts, ok := parseFunc(text, end, ok)
		if ok {
			parsed++
			if stmts >= 3 {
				long++
			}
			if shown < f.show {
				shown++
				fmt.Fprintf(w, "  seed %d parses (%d statements):\n%s\n", seed, stmts, indent(text[len(parsePrompt)-len("func main() {"):end]))
			}
		}
	}
	fmt.Fprintf(w, "parse: %d samples (seeds 1–%d, temperature %g, top-k %d, at most %d new tokens): %d closed the body of main, %d parse as a function declaration, %d of them with ≥ 3 statements (%s)\n",
		f.samples, f.samples, f.temperature, f.topK, f.maxNew, closed, parsed, long, time.Since(t0).Round(time.Second))

	// 3. Greedy continuations.
	for _, text := range greedyPrompts {
		g, err := gpt.NewGenerator(m, tok.Encode(text), gpt.Greedy, true)
		if err != nil {
			return err
		}
		g.EndID = tok.EndTokenID()
		if _, err := g.Steps(f.greedyNew); err != nil && !errors.Is(err, gpt.ErrStopped) {
			return err
		}
		fmt.Fprintf(w, "greedy %q → %q\n", text, tok.Decode(g.Generated()))
	}

	// 4. Heads that do one thing.
	if f.headWindows > 0 {
		t0 = time.Now()
		windows, err := heldOutWindows(corpus.Val, m.Config.BlockSize, f.headWindows)
		if err != nil {
			return err
		}
		braces, err := printHeads(w, m, tok, windows)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "heads: %d windows of %d held-out tokens (%s)\n", f.headWindows, m.Config.BlockSize, time.Since(t0).Round(time.Second))
		if f.headFigure != "" {
			l, h, _ := braces.Max()
			if err := headFigure(m, tok, headSnippet, l, h, f.headFigure); err != nil {
				return fmt.Errorf("head figure: %w", err)
			}
			fmt.Fprintf(w, "wrote %s: layer %d head %d on %q\n", f.headFigure, l, h, headSnippet)
		}
	}

	// 5. The induction gate: does the model show the first lesson of interpretability?
	if f.gateSeqs > 0 {
		g, err := interp.InductionGate(m, interp.GateOptions{Seqs: f.gateSeqs, N: f.gateN, BOS: tok.EndTokenID(), Seed: 1})
		if err != nil {
			return err
		}
		g.Print(w)
	}
	return nil
}

// headSnippet is the short function the brace head's figure shows: nested braces a few
// tokens apart.
const headSnippet = "func f(xs []int) int {\n\tn := 0\n\tfor _, x := range xs {\n\t\tif x > 0 {\n\t\t\tn++\n\t\t}\n\t}\n\treturn n\n}"

// loadForEval opens any model file gpt.Open opens (a training checkpoint FILE.ckpt
// included) and describes it with its metadata.
func loadForEval(path string) (*gpt.Model, *tokenizer.Tokenizer, string, error) {
	m, tok, err := gpt.Open(path)
	if err != nil {
		return nil, nil, "", err
	}
	desc := fmt.Sprintf("%s (%v)", path, m.Config)
	s, err := gpt.OpenSafetensors(path)
	if err != nil {
		return nil, nil, "", err
	}
	defer s.Close()
	if js, ok := s.Metadata[gpt.TrainStateKey]; ok {
		var st struct{ Step int }
		if err := json.Unmarshal([]byte(js), &st); err != nil {
			return nil, nil, "", fmt.Errorf("%s: training state: %w", path, err)
		}
		desc += fmt.Sprintf(", training checkpoint at step %d", st.Step)
	}
	for _, k := range []string{"steps", "tokens", "val_loss", "go_version", "corpus_hash"} {
		if v, ok := s.Metadata[k]; ok {
			desc += fmt.Sprintf(", %s %s", k, v)
		}
	}
	return m, tok, desc, nil
}

// valResult is the loss over the validation windows.
type valResult struct {
	windows, tokens, bytes int
	loss                   float64 // nats per token, the mean over every predicted token
	bitsPerByte            float64 // the same total in bits, over the bytes of the predicted tokens
}

// validationLoss forwards non-overlapping windows of the block size cut from val in batches
// of B (every window, or n batches of windows spread evenly; gpt.Windows), and returns the mean loss per
// token and in bits per byte of the predicted tokens' text (the end-of-text token between
// files counts as no bytes).
func validationLoss(m *gpt.Model, tok *tokenizer.Tokenizer, val []int32, B, n int) (valResult, error) {
	T := m.Config.BlockSize
	var r valResult
	xs, ys, err := gpt.Windows(val, B, T, max(n, 0))
	if err != nil {
		return r, err
	}
	var nats float64
	for i := range xs {
		out, err := m.Forward(xs[i], ys[i])
		if err != nil {
			return r, err
		}
		k := len(xs[i]) * T
		nats += float64(out.Loss) * float64(k)
		r.windows += len(xs[i])
		r.tokens += k
		for _, row := range ys[i] {
			for _, id := range row {
				if !tok.IsSpecial(id) {
					r.bytes += len(tok.Token(id))
				}
			}
		}
	}
	r.loss = nats / float64(r.tokens)
	r.bitsPerByte = nats / math.Ln2 / float64(r.bytes)
	return r, nil
}

// sampleFunc continues prompt under policy p until the first function body in the text
// closes, the model writes its end token, or maxNew tokens, and returns the whole text.
func sampleFunc(m *gpt.Model, tok *tokenizer.Tokenizer, prompt []int, p gpt.Policy, maxNew int) (string, error) {
	g, err := gpt.NewGenerator(m, prompt, p, true)
	if err != nil {
		return "", err
	}
	g.EndID = tok.EndTokenID()
	text := []byte(tok.Decode(prompt))
	for range maxNew {
		st, err := g.Step()
		if err != nil {
			return "", err
		}
		if st.End {
			break
		}
		piece := tok.Token(st.Token)
		text = append(text, piece...)
		if strings.Contains(string(piece), "}") {
			if _, ok := funcBodyEnd(string(text)); ok {
				break
			}
		}
	}
	return string(text), nil
}

// funcBodyEnd returns the offset just past the '}' that closes the body of the first
// top-level function in src, and whether it closes at all. It reads src with go/scanner,
// so braces inside strings, runes and comments do not count, and neither do the braces of
// a struct or interface type in the function's signature:
//
//	"func f() { s := \"}\" }\nfunc g() {}" → 21, true (the end of f)
//	"func f() { if x {"                      → 0, false
func funcBodyEnd(src string) (int, bool) {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), func(token.Position, string) {}, scanner.ScanComments)
	inFunc := false       // after a top-level func keyword
	depth, parens := 0, 0 // braces and parentheses open
	body := false         // inside the function's body
	prev := token.ILLEGAL
	for {
		pos, tk, _ := s.Scan()
		switch tk {
		case token.EOF:
			return 0, false
		case token.COMMENT:
			continue
		case token.FUNC:
			if depth == 0 && parens == 0 && !inFunc {
				inFunc = true
			}
		case token.LPAREN:
			parens++
		case token.RPAREN:
			parens--
		case token.LBRACE:
			if inFunc && !body && depth == 0 && parens == 0 && prev != token.STRUCT && prev != token.INTERFACE {
				body = true
			}
			depth++
		case token.RBRACE:
			depth--
			if body && depth == 0 {
				return file.Offset(pos) + 1, true
			}
		}
		prev = tk
	}
}

// parseFunc parses src up to end (the first function body's end, when closed) as a Go
// file and reports whether it is one whose last declaration is a function with a body,
// and how many statements that body holds at its top level.
func parseFunc(src string, end int, closed bool) (stmts int, ok bool) {
	if !closed {
		return 0, false
	}
	f, err := parser.ParseFile(token.NewFileSet(), "sample.go", src[:end], parser.SkipObjectResolution)
	if err != nil || len(f.Decls) == 0 {
		return 0, false
	}
	fd, isFunc := f.Decls[len(f.Decls)-1].(*ast.FuncDecl)
	if !isFunc || fd.Body == nil {
		return 0, false
	}
	return len(fd.Body.List), true
}

// indent prefixes every line of s with four spaces, for a report.
func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
