package gpt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/tokenizer"
)

// Open finds the tokenizer by one rule for each kind of file a model lives in.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	tok, err := tokenizer.Train(strings.Repeat("func main() { fmt.Println(\"hello, gopher\") }\n", 40), 280,
		tokenizer.TrainOptions{Special: []string{tokenizer.EndOfText}})
	if err != nil {
		t.Fatal(err)
	}
	small := Config{VocabSize: tok.VocabSize(), BlockSize: 16, Layers: 1, Heads: 2, Channels: 16}
	newModel := func(cfg Config) *Model {
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		m.Init(1, true)
		return m
	}
	save := func(name string, m *Model, meta map[string]string) string {
		p := filepath.Join(dir, name)
		if err := Save(p, m, meta); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if err := tok.Save(filepath.Join(dir, "mine.tok")); err != nil {
		t.Fatal(err)
	}
	if err := tok.Save(filepath.Join(dir, "beside.tok")); err != nil {
		t.Fatal(err)
	}

	// 1. named in the metadata: gpt/doc.go's Save, with GPT-2's tokenizer
	gpt2 := save("gpt2-bf16.safetensors", newModel(Config{VocabSize: 50257, BlockSize: 8, Layers: 1, Heads: 1, Channels: 8}).WithPrecision(BF16),
		map[string]string{"tokenizer": "gpt2"})
	// 1. named in the metadata: a file beside the model, as `gptnotes train` saves it
	named := save("named.safetensors", newModel(small), map[string]string{"tokenizer": "mine.tok"})
	// 2. no metadata, NAME.tok beside it, as the shipped model
	beside := save("beside.safetensors", newModel(small), nil)
	// 2. a training checkpoint with NAME.ckpt.tok beside it
	tr, err := NewTrainer(newModel(small), patternTokens(400, small.VocabSize, 1), patternTokens(100, small.VocabSize, 2),
		TrainOptions{Batch: 2, SeqLen: 8, Steps: 1})
	if err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(dir, "run.safetensors.ckpt")
	if err := tr.SaveCheckpoint(ckpt); err != nil {
		t.Fatal(err)
	}
	if err := tok.Save(ckpt + ".tok"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path  string
		vocab int
	}{{gpt2, 50257}, {named, small.VocabSize}, {beside, small.VocabSize}, {ckpt, small.VocabSize}} {
		m, tk, err := Open(c.path)
		if err != nil {
			t.Errorf("Open(%s): %v", filepath.Base(c.path), err)
			continue
		}
		if m.Config.VocabSize != c.vocab || tk.VocabSize() != c.vocab {
			t.Errorf("Open(%s): model vocabulary %d, tokenizer %d; want %d", filepath.Base(c.path), m.Config.VocabSize, tk.VocabSize(), c.vocab)
		}
	}

	// No tokenizer anywhere, and not GPT-2's vocabulary: an error that says so.
	lost := save("lost.safetensors", newModel(small), nil)
	if _, _, err := Open(lost); err == nil || !strings.Contains(err.Error(), "tokenizer") {
		t.Errorf("Open without a tokenizer: %v", err)
	}
	// A tokenizer of another vocabulary: an error naming both sizes.
	os.Remove(filepath.Join(dir, "beside.tok"))
	other, err := tokenizer.Train("abcabcabd", 258, tokenizer.TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Save(filepath.Join(dir, "beside.tok")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Open(beside); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("has %d tokens, the model %d", other.VocabSize(), small.VocabSize)) {
		t.Errorf("Open with a tokenizer of %d tokens: %v", other.VocabSize(), err)
	}
}

// Files lists what Open reads, and nothing else of the folder: the model and the tokenizer its
// metadata names beside it, for a file or for the folder that holds it as model.safetensors.
func TestFiles(t *testing.T) {
	got, err := Files(filepath.Join("..", "testdata", ShippedModel))
	want := []string{filepath.Join("..", "testdata", ShippedModel), filepath.Join("..", "testdata", "gopher.tok")}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Files(shipped) = %q, %v; want %q", got, err, want)
	}
	dir := t.TempDir()
	for from, to := range map[string]string{ShippedModel: "model.safetensors", "gopher.tok": "gopher.tok"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("x"), 0o644)
	got, err = Files(dir)
	want = []string{filepath.Join(dir, "model.safetensors"), filepath.Join(dir, "gopher.tok")}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Files(folder) = %q, %v; want %q", got, err, want)
	}
}
