package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// smallCorpus copies a few files of the standard library into a temporary directory.
func smallCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(runtime.GOROOT(), "src", "strings")
	for _, name := range []string{"strings.go", "builder.go", "reader.go", "replace.go", "search.go", "compare.go", "clone.go"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Skip("no Go source to train on:", err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func tinyFlags(corpus, out string) trainFlags {
	return trainFlags{
		corpus: corpus, exts: ".go", out: out, cache: "-",
		vocab: 300, layers: 1, heads: 2, width: 16, block: 32,
		batch: 2, steps: 6, lr: 3e-3, wd: 0.1, clip: 1,
		evalEvery: 3, evalBatches: 2, ckptEvery: 3, logEvery: 1, tokBytes: 1 << 20, seed: 1,
	}
}

func TestTrainWritesModelAndTokenizerThenResumes(t *testing.T) {
	corpus := smallCorpus(t)
	out := filepath.Join(t.TempDir(), "tiny.safetensors")
	var log bytes.Buffer
	if err := train(context.Background(), tinyFlags(corpus, out), &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	t.Log(log.String())
	m, meta, err := gpt.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokenizer.Load(filepath.Join(filepath.Dir(out), "tiny.tok"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Config.VocabSize != tok.VocabSize() || meta["tokenizer"] != "tiny.tok" || meta["steps"] != "6" {
		t.Errorf("model vocab %d, tokenizer %d, metadata %v", m.Config.VocabSize, tok.VocabSize(), meta)
	}
	if meta["tokens"] != "384" || meta["go_version"] != runtime.Version() || meta["corpus_files"] != "7" || !strings.HasPrefix(meta["corpus_hash"], "sha256:") {
		t.Errorf("metadata %v: want tokens 384 (6 steps × 2 × 32), go_version %s, corpus_files 7 and corpus_hash sha256:…", meta, runtime.Version())
	}
	for _, want := range []string{"step 3/6", "val", "wrote"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q", want)
		}
	}

	// Resume: the checkpoint is at step 6; ask for 8 steps.
	f := tinyFlags(corpus, out)
	f.steps, f.resume = 8, true
	log.Reset()
	if err := train(context.Background(), f, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), "resumed from") || !strings.Contains(log.String(), "step 8/8") || strings.Contains(log.String(), "step 6/8") {
		t.Errorf("resumed run's log:\n%s", log.String())
	}
}

func TestTrainBadInput(t *testing.T) {
	corpus := smallCorpus(t)
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("not Go"), 0o644)
	dir := t.TempDir()
	cases := []struct {
		name string
		edit func(*trainFlags)
		want string
	}{
		{"empty corpus", func(f *trainFlags) { f.corpus = empty }, "empty corpus"},
		{"vocabulary too large", func(f *trainFlags) { f.vocab = 1 << 20; f.tokBytes = 3000 }, "larger than the corpus supports"},
		{"block longer than the data", func(f *trainFlags) { f.block = 20000 }, "fewer than block size"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := tinyFlags(corpus, filepath.Join(dir, "m.safetensors"))
			c.edit(&f)
			err := train(context.Background(), f, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to mention %q", err, c.want)
			}
			t.Log(err)
		})
	}

	t.Run("resume with another config", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "m.safetensors")
		if err := train(context.Background(), tinyFlags(corpus, out), &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		before, _ := os.ReadFile(out + ".ckpt")
		f := tinyFlags(corpus, out)
		f.width, f.resume = 24, true
		err := train(context.Background(), f, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), "another model") {
			t.Fatalf("err = %v, want a config mismatch", err)
		}
		t.Log(err)
		after, _ := os.ReadFile(out + ".ckpt")
		if !bytes.Equal(before, after) {
			t.Error("the refused resume changed the checkpoint")
		}
	})
}

// cancelAt is a log that cancels the run once it has logged the line of step want.
type cancelAt struct {
	bytes.Buffer
	want   string
	cancel context.CancelFunc
}

func (c *cancelAt) Write(p []byte) (int, error) {
	if strings.Contains(string(p), c.want) {
		c.cancel()
	}
	return c.Buffer.Write(p)
}

// TestTrainStopAndResumeIsExact stops a run after step 3 of 6 the way Ctrl-C does, resumes
// it from its checkpoint with a fresh process's state (tokenizer from the checkpoint, corpus
// tokenized again, loader restored), and checks that the losses, the loss CSV and the final
// weights are the uninterrupted run's, bit for bit.
func TestTrainStopAndResumeIsExact(t *testing.T) {
	corpus := smallCorpus(t)
	run := func(dir string, stopAfter string) (*gpt.Model, []string) {
		out := filepath.Join(dir, "m.safetensors")
		f := tinyFlags(corpus, out)
		f.lossCSV = filepath.Join(dir, "loss.csv")
		if stopAfter != "" {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			log := &cancelAt{want: stopAfter, cancel: cancel}
			if err := train(ctx, f, log); err == nil || !strings.Contains(err.Error(), "stopped at step 3") {
				t.Fatalf("stopped run: err = %v\n%s", err, log.String())
			}
			f.resume = true
		}
		var log bytes.Buffer
		if err := train(context.Background(), f, &log); err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		m, _, err := gpt.Load(out)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(f.lossCSV)
		if err != nil {
			t.Fatal(err)
		}
		var rows []string // without the last column, tokens/s, which is the machine's
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			rows = append(rows, line[:strings.LastIndex(line, ",")])
		}
		return m, rows
	}
	whole, wantRows := run(t.TempDir(), "")
	resumed, rows := run(t.TempDir(), "step 3/6")
	if len(wantRows) != 7 || !slices.Equal(rows, wantRows) {
		t.Errorf("loss CSV of the resumed run:\n%s\nuninterrupted:\n%s", strings.Join(rows, "\n"), strings.Join(wantRows, "\n"))
	}
	diff := 0.0
	for i, w := range whole.Params.Data {
		diff = max(diff, math.Abs(float64(w-resumed.Params.Data[i])))
	}
	if diff != 0 {
		t.Errorf("weights of the resumed run differ from the uninterrupted run's: max |diff| %g", diff)
	}
}

// --attn-only and --repeated reach the model and its metadata.
func TestTrainAttnOnlyRepeated(t *testing.T) {
	corpus := smallCorpus(t)
	out := filepath.Join(t.TempDir(), "induction.safetensors")
	f := tinyFlags(corpus, out)
	f.attnOnly, f.repeated = true, 0.5
	var log bytes.Buffer
	if err := train(context.Background(), f, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	m, meta, err := gpt.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Config.AttnOnly || meta["attn_only"] != "true" || meta["repeated"] != "0.5" || !strings.Contains(log.String(), "attention only") {
		t.Errorf("config %v, metadata %v; log:\n%s", m.Config, meta, log.String())
	}
	f.repeated = 1.5
	if err := train(context.Background(), f, &log); err == nil || !strings.Contains(err.Error(), "repeated fraction 1.5") {
		t.Errorf("--repeated 1.5: %v", err)
	}

	// --tokenizer: the first run's tokenizer, not a new one.
	given := filepath.Join(t.TempDir(), "given.tok")
	if err := os.Rename(filepath.Join(filepath.Dir(out), "induction.tok"), given); err != nil {
		t.Fatal(err)
	}
	f = tinyFlags(corpus, filepath.Join(t.TempDir(), "again.safetensors"))
	f.tokFile, f.vocab = given, 999 // the tokenizer's size wins
	log.Reset()
	if err := train(context.Background(), f, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	again, _, err := gpt.Load(f.out)
	if err != nil {
		t.Fatal(err)
	}
	if again.Config.VocabSize != m.Config.VocabSize || !strings.Contains(log.String(), "(given)") {
		t.Errorf("with --tokenizer: vocab %d, want %d; log:\n%s", again.Config.VocabSize, m.Config.VocabSize, log.String())
	}

	// A given tokenizer beside --out is named by the model's metadata, not copied, and
	// gpt.Open finds it.
	out = filepath.Join(filepath.Dir(given), "beside.safetensors")
	f = tinyFlags(corpus, out)
	f.tokFile = given
	if err := train(context.Background(), f, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(out), "beside.tok")); !os.IsNotExist(err) {
		t.Errorf("beside.tok written (%v); want the metadata to name given.tok", err)
	}
	if _, tok, err := gpt.Open(out); err != nil || tok.VocabSize() != m.Config.VocabSize {
		t.Errorf("gpt.Open of a model naming given.tok: %v", err)
	}
}
