package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gptnotes/gptnotes/goeval"
	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/interp"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// `gptnotes evalmodel` measures a model trained on Go source the same way every time, so
// the shipped model and its successors can be compared: the loss on the held-out files,
// whether its Go parses, what greedy decoding writes, its heads and the induction gate.
// Packages goeval and interp measure; this file parses the flags and prints. The figures
// are in docs/model-card.md.

func init() {
	register(command{
		name:    "evalmodel",
		summary: "measure a model trained on Go source: validation loss, bits per byte, does its Go parse",
		run:     func(args []string) error { return runEvalModel(args, os.Stdout) },
	})
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
	v, err := goeval.ValidationLoss(m, tok, corpus.Val, f.batch, f.valBatches)
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
		gpt.Commas(v.Tokens), gpt.Commas(v.Bytes), v.Windows, m.Config.BlockSize, nVal, f.corpus, gpt.Commas(len(corpus.Val)),
		v.Loss, v.BitsPerByte, time.Since(t0).Round(time.Second))

	// 2. Does its Go parse?
	t0 = time.Now()
	var pieces []string
	prompt := tok.Encode(goeval.ParsePrompt)
	for _, id := range prompt {
		pieces = append(pieces, fmt.Sprintf("%q", tok.Token(id)))
	}
	fmt.Fprintf(w, "parse prompt: %q\n  %d tokens: %s\n", goeval.ParsePrompt, len(prompt), strings.Join(pieces, " "))
	pr, err := goeval.Parse(m, tok, goeval.ParseOptions{Samples: f.samples, MaxNew: f.maxNew,
		Policy: gpt.Policy{Temperature: f.temperature, TopK: f.topK}, Keep: f.show})
	if err != nil {
		return err
	}
	for _, s := range pr.Kept {
		fmt.Fprintf(w, "  seed %d parses (%d statements):\n%s\n", s.Seed, s.Statements, indent(s.Func))
	}
	fmt.Fprintf(w, "parse: %d samples (seeds 1–%d, temperature %g, top-k %d, at most %d new tokens): %d closed the body of main, %d parse as a function declaration, %d of them with ≥ 3 statements (%s)\n",
		f.samples, f.samples, f.temperature, f.topK, f.maxNew, pr.Closed, pr.Parsed, pr.Long, time.Since(t0).Round(time.Second))

	// 3. Greedy continuations.
	for _, text := range goeval.GreedyPrompts {
		out, err := goeval.Greedy(m, tok, text, f.greedyNew)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "greedy %q → %q\n", text, out)
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

// indent prefixes every line of s with four spaces, for a report.
func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
