package main

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/internal/atomicfile"
	"github.com/gptnotes/gptnotes/study"
	"github.com/gptnotes/gptnotes/tokenizer"
)

func init() {
	register(command{
		name:    "train",
		summary: "train a tokenizer and a small GPT-2 on a directory of text (default: Go's own source)",
		run:     runTrain,
	})
}

// trainFlags are the settings of `gptnotes train`.
type trainFlags struct {
	corpus, exts, out, preset string
	vocab, layers, heads      int
	width, block, batch       int
	steps, warmup, evalEvery  int
	evalBatches, ckptEvery    int
	logEvery                  int
	tokBytes, maxBytes        int64
	lr, minLR, wd, clip       float64
	repeated                  float64
	seed                      uint64
	bf16, resume, attnOnly    bool
	cache, lossCSV, tokFile   string
}

func runTrain(args []string) error {
	fs := newFlags("train", "[flags] --out FILE", `Trains a byte-level BPE tokenizer on a sample of the corpus, then a GPT-2 on all of it
(forward, backward, AdamW with warmup and cosine decay), and writes FILE (the model,
safetensors) and FILE without its extension + ".tok" (the tokenizer) next to each other.
A checkpoint FILE.ckpt (with its tokenizer FILE.ckpt.tok) is saved every --checkpoint-every
steps and on Ctrl-C or SIGTERM; --resume continues from it exactly.

  gptnotes train --vocab 4096 --layers 6 --heads 6 --width 192 --block 256 \
      --batch 16 --steps 2000 --lr 1e-3 --out testdata/gopher.safetensors`)
	var f trainFlags
	fs.StringVar(&f.corpus, "corpus", gpt.GoSourceDir(), "directory of text files (read recursively)")
	fs.StringVar(&f.exts, "ext", ".go", "comma-separated file name endings to read")
	fs.Int64Var(&f.maxBytes, "max-bytes", 0, "read at most this many bytes of the corpus (0: all)")
	fs.Int64Var(&f.tokBytes, "tokenizer-bytes", 16<<20, "bytes of training text, sampled across files, to train the tokenizer on")
	fs.StringVar(&f.cache, "cache", "", "token cache directory (default: the user cache dir; - for none)")
	fs.StringVar(&f.preset, "preset", "", "start from a preset config: "+presetNames())
	fs.IntVar(&f.vocab, "vocab", 4096, "tokenizer vocabulary size, including <|endoftext|>")
	fs.IntVar(&f.layers, "layers", 6, "transformer blocks")
	fs.IntVar(&f.heads, "heads", 6, "attention heads")
	fs.IntVar(&f.width, "width", 192, "channels")
	fs.IntVar(&f.block, "block", 256, "block size: positions per sequence")
	fs.IntVar(&f.batch, "batch", 16, "sequences per step")
	fs.IntVar(&f.steps, "steps", 1000, "training steps")
	fs.Float64Var(&f.lr, "lr", 1e-3, "peak learning rate")
	fs.Float64Var(&f.minLR, "min-lr", 0, "final learning rate (default lr/10)")
	fs.IntVar(&f.warmup, "warmup", 0, "warmup steps (default steps/20)")
	fs.Float64Var(&f.wd, "weight-decay", 0.1, "AdamW weight decay of the matrices")
	fs.Float64Var(&f.clip, "clip", 1.0, "gradient-norm clipping")
	fs.IntVar(&f.evalEvery, "eval-every", 100, "steps between validation losses")
	fs.IntVar(&f.evalBatches, "eval-batches", 8, "validation batches per evaluation")
	fs.IntVar(&f.ckptEvery, "checkpoint-every", 100, "steps between checkpoints (FILE.ckpt)")
	fs.IntVar(&f.logEvery, "log-every", 10, "steps between progress lines when stderr is not a terminal")
	fs.Uint64Var(&f.seed, "seed", 1, "seeds the initial weights, the batches and the tokenizer's sample")
	fs.StringVar(&f.tokFile, "tokenizer", "", "use this tokenizer (a .tok file, e.g. testdata/gopher.tok) instead of training one; its size is the vocabulary")
	fs.BoolVar(&f.attnOnly, "attn-only", false, "attention-only blocks (no ln_2, no MLP), as the induction-head lessons' models")
	fs.Float64Var(&f.repeated, "repeated", 0, "fraction of each batch's sequences that are random tokens repeated twice (grows induction heads), 0 … 1")
	fs.BoolVar(&f.bf16, "bf16", false, "store the final model's weights as bfloat16 (half the bytes)")
	fs.BoolVar(&f.resume, "resume", false, "continue from FILE.ckpt if it exists")
	fs.StringVar(&f.lossCSV, "loss-csv", "", "write every step's losses to this CSV file at each checkpoint and at the end")
	fs.StringVar(&f.out, "out", "", "the model file to write, e.g. gopher.safetensors (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if f.out == "" {
		return errors.New("--out FILE is required")
	}
	if f.preset != "" {
		p, ok := gpt.Presets[f.preset]
		if !ok {
			return fmt.Errorf("unknown preset %q (have %s)", f.preset, presetNames())
		}
		set := map[string]bool{}
		fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
		pick := func(name string, dst *int, v int) {
			if !set[name] {
				*dst = v
			}
		}
		pick("vocab", &f.vocab, p.VocabSize)
		pick("layers", &f.layers, p.Layers)
		pick("heads", &f.heads, p.Heads)
		pick("width", &f.width, p.Channels)
		pick("block", &f.block, p.BlockSize)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return train(ctx, f, os.Stderr)
}

func presetNames() string {
	var names []string
	for n := range gpt.Presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// tokPath is where the tokenizer of a model file goes: gopher.safetensors → gopher.tok.
func tokPath(model string) string {
	return strings.TrimSuffix(model, filepath.Ext(model)) + ".tok"
}

// train runs the whole pipeline, reporting progress on log.
func train(ctx context.Context, f trainFlags, log io.Writer) error {
	start := time.Now()
	ckpt := f.out + ".ckpt"
	ckptTok := ckpt + ".tok"
	cfg := gpt.Config{VocabSize: f.vocab, BlockSize: f.block, Layers: f.layers, Heads: f.heads, Channels: f.width, AttnOnly: f.attnOnly}
	if err := cfg.Validate(); err != nil {
		return err
	}

	// 1. The corpus: list and split the files.
	copts := gpt.CorpusOptions{Exts: strings.Split(f.exts, ","), MaxBytes: f.maxBytes, CacheDir: f.cache}
	corpus, err := gpt.OpenCorpus(f.corpus, copts)
	if err != nil {
		return err
	}
	nVal := 0
	for _, file := range corpus.Files {
		if file.Val {
			nVal++
		}
	}
	fmt.Fprintf(log, "corpus %s: %d files (%d for validation), %s bytes\n", f.corpus, len(corpus.Files), nVal, gpt.Commas(int(corpus.Bytes)))

	// 2. The tokenizer: trained on a sample of the training files, or the checkpoint's.
	resuming := f.resume && exists(ckpt)
	var tok *tokenizer.Tokenizer
	switch {
	case resuming:
		if tok, err = tokenizer.Load(ckptTok); err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		fmt.Fprintf(log, "tokenizer %s: %d tokens (from the checkpoint)\n", ckptTok, tok.VocabSize())
	case f.tokFile != "":
		if tok, err = tokenizer.Load(f.tokFile); err != nil {
			return fmt.Errorf("--tokenizer: %w", err)
		}
		fmt.Fprintf(log, "tokenizer %s: %d tokens (given)\n", f.tokFile, tok.VocabSize())
	default:
		text, err := corpus.Text(f.tokBytes, f.seed)
		if err != nil {
			return err
		}
		t0 := time.Now()
		tok, err = tokenizer.Train(text, f.vocab, tokenizer.TrainOptions{Special: []string{tokenizer.EndOfText}})
		if err != nil {
			return err
		}
		if tok.VocabSize() < f.vocab {
			return fmt.Errorf("tokenizer: a vocabulary of %d is larger than the corpus supports: %s bytes of text ran out of pairs to merge at %d tokens; use --vocab %d or less, or more text",
				f.vocab, gpt.Commas(len(text)), tok.VocabSize(), tok.VocabSize())
		}
		fmt.Fprintf(log, "tokenizer: %d tokens trained on %s bytes in %s\n", tok.VocabSize(), gpt.Commas(len(text)), time.Since(t0).Round(time.Millisecond))
	}
	cfg.VocabSize = tok.VocabSize()

	// 3. Tokens, cached on disk.
	t0 := time.Now()
	if err := corpus.Tokenize(tok); err != nil {
		return err
	}
	how := "tokenized in " + time.Since(t0).Round(time.Millisecond).String()
	if corpus.Cached {
		how = "from the cache"
	}
	fmt.Fprintf(log, "tokens: %s train, %s validation (%s; %.2f bytes/token)\n",
		gpt.Commas(len(corpus.Train)), gpt.Commas(len(corpus.Val)), how, float64(corpus.Bytes)/float64(len(corpus.Train)+len(corpus.Val)))

	// 4. The model and the trainer.
	m, err := gpt.New(cfg)
	if err != nil {
		return err
	}
	m.Init(f.seed, true)
	opts := gpt.TrainOptions{
		Batch: f.batch, SeqLen: f.block, Steps: f.steps, LR: f.lr, MinLR: f.minLR, Warmup: f.warmup,
		WeightDecay: orNone(f.wd), ClipNorm: orNone(f.clip), Seed: f.seed,
		EvalEvery: f.evalEvery, EvalBatches: f.evalBatches,
		CheckpointEvery: f.ckptEvery, CheckpointPath: ckpt, Repeated: f.repeated,
	}
	tr, err := gpt.NewTrainer(m, corpus.Train, corpus.Val, opts)
	if err != nil {
		return err
	}
	if resuming {
		if err := tr.Resume(ckpt); err != nil {
			return err
		}
		fmt.Fprintf(log, "resumed from %s at step %d\n", ckpt, tr.StepsDone())
	} else if err := tok.Save(ckptTok); err != nil {
		return err
	}
	fmt.Fprintf(log, "model: %v, %s parameters; %s; batch %d × %d; %s (BLAS: %s)\n",
		cfg, gpt.Commas(cfg.NumParams()), tr.Schedule, f.batch, f.block, fmt.Sprintf("%d steps", f.steps), gpt.BLAS)

	// 5. Train, with a progress bar. Each step's tokens/s is of its forward, backward and
	// AdamW alone; the lines with a validation loss add the run's own rate (wall time,
	// evaluations and checkpoints included) and the machine's load, and the end says where
	// the time went.
	tty := isTerminal(log)
	loopStart, tokens := time.Now(), 0
	rate := func() string {
		wall := time.Since(loopStart)
		return fmt.Sprintf("%s tokens in %s: %s tok/s over the run; load %s",
			gpt.Commas(tokens), wall.Round(time.Second), gpt.Commas(int(float64(tokens)/wall.Seconds())), study.LoadAverage())
	}
	tr.OnStep = func(r gpt.StepResult) {
		tokens += r.Tokens
		if f.lossCSV != "" && f.ckptEvery > 0 && r.Step%f.ckptEvery == 0 {
			if err := writeLossCSV(f.lossCSV, tr.History, f.batch*f.block); err != nil {
				fmt.Fprintf(log, "%v\n", err)
			}
		}
		switch {
		case tty:
			fmt.Fprintf(log, "\r%s\x1b[K", r.ProgressBar(30))
			if r.Step == r.Steps {
				fmt.Fprintln(log)
			}
		case !isNaN(r.ValLoss):
			fmt.Fprintf(log, "%s %s (%s)\n", time.Now().UTC().Format("15:04:05"), r, rate())
		case r.Step%max(f.logEvery, 1) == 0 || r.Step == r.Steps:
			fmt.Fprintf(log, "%s %s\n", time.Now().UTC().Format("15:04:05"), r)
		}
	}
	err = tr.Run(ctx)
	if tokens > 0 {
		fmt.Fprintf(log, "time: %s; %s\n", rate(), tr.Timing)
	}
	if f.lossCSV != "" {
		if err := writeLossCSV(f.lossCSV, tr.History, f.batch*f.block); err != nil {
			return err
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("stopped at step %d; checkpoint %s (continue with --resume): %w", tr.StepsDone(), ckpt, err)
		}
		return err
	}

	// 6. The model and its tokenizer, side by side.
	out := m
	if f.bf16 {
		out = m.WithPrecision(gpt.BF16)
	}
	if len(tr.History) == 0 {
		return fmt.Errorf("no steps taken (--steps %d)", f.steps)
	}
	last := tr.History[len(tr.History)-1]
	if isNaN(last.ValLoss) { // a run resumed only to write its model
		if last.ValLoss, err = tr.Evaluate(); err != nil {
			return err
		}
	}
	// The tokenizer goes beside the model, unless --tokenizer named one there already: the
	// model's metadata then names that file (gpt.Open's first rule), and no copy is written.
	outTok := tokPath(f.out)
	if f.tokFile != "" && sameDir(f.tokFile, f.out) {
		outTok = f.tokFile
	}
	meta := map[string]string{
		"tokenizer":  filepath.Base(outTok),
		"train_loss": strconv.FormatFloat(last.Loss, 'f', 4, 64),
		"val_loss":   strconv.FormatFloat(last.ValLoss, 'f', 4, 64),
		"steps":      strconv.Itoa(tr.StepsDone()),
		"tokens":     strconv.Itoa(tr.StepsDone() * f.batch * f.block),
		"batch":      fmt.Sprintf("%d×%d", f.batch, f.block),
		"corpus":     f.corpus,
		// What the corpus was: the Go release (whose source is the default corpus) and a
		// hash of the file list with sizes and split, to tell whether a later run saw the
		// same files.
		"go_version":   runtime.Version(),
		"corpus_files": strconv.Itoa(len(corpus.Files)),
		"corpus_hash":  corpusListHash(corpus.Files),
	}
	if f.repeated > 0 {
		meta["repeated"] = strconv.FormatFloat(f.repeated, 'f', -1, 64) // of each batch: random tokens repeated twice
	}
	if outTok == tokPath(f.out) {
		if err := tok.Save(outTok); err != nil {
			return err
		}
	}
	if err := gpt.Save(f.out, out, meta); err != nil {
		return err
	}
	fmt.Fprintf(log, "wrote %s (%s bytes) beside %s (%s bytes) after %s: train loss %.4f, validation loss %.4f\n",
		f.out, gpt.Commas(int(fileSize(f.out))), outTok, gpt.Commas(int(fileSize(outTok))),
		time.Since(start).Round(time.Second), last.Loss, last.ValLoss)
	return nil
}

// sameDir reports whether two files are in the same directory.
func sameDir(a, b string) bool {
	da, err1 := filepath.Abs(filepath.Dir(a))
	db, err2 := filepath.Abs(filepath.Dir(b))
	return err1 == nil && err2 == nil && da == db
}

// corpusListHash is the SHA-256 of the corpus's file list, one "path size split" line per
// file in path order, e.g. "sha256:3f2a…".
func corpusListHash(files []gpt.CorpusFile) string {
	h := sha256.New()
	for _, f := range files {
		split := "train"
		if f.Val {
			split = "val"
		}
		fmt.Fprintf(h, "%s %d %s\n", f.Path, f.Size, split)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// writeLossCSV writes the loss curve so far, one row per step (val_loss empty where it
// was not measured), atomically (package atomicfile). It is written from the
// trainer's History, which a resumed run restores from the checkpoint, so the file of a
// resumed run is the uninterrupted run's.
func writeLossCSV(path string, history []gpt.StepResult, tokensPerStep int) error {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write([]string{"step", "tokens", "loss", "val_loss", "lr", "grad_norm", "tokens_per_sec"})
	for _, r := range history {
		val := ""
		if !isNaN(r.ValLoss) {
			val = strconv.FormatFloat(r.ValLoss, 'f', 4, 64)
		}
		w.Write([]string{strconv.Itoa(r.Step), strconv.Itoa(r.Step * tokensPerStep), strconv.FormatFloat(r.Loss, 'f', 4, 64), val,
			strconv.FormatFloat(r.LR, 'e', 3, 64), strconv.FormatFloat(r.GradNorm, 'f', 4, 64),
			strconv.FormatFloat(r.TokensPerSec, 'f', 0, 64)})
	}
	w.Flush()
	err := atomicfile.Write(path, func(f *os.File) error {
		_, err := f.WriteString(b.String())
		return err
	})
	if err != nil {
		return fmt.Errorf("train: loss csv: %w", err)
	}
	return nil
}

// orNone turns the command line's 0 ("none") into the trainer's negative ("none"), since
// the trainer reads 0 as "default".
func orNone(x float64) float64 {
	if x == 0 {
		return -1
	}
	return x
}

func isNaN(x float64) bool { return x != x }

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// isTerminal reports whether w is a character device (a terminal, not a log file).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
