package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// saveTinyCheckpoint writes a small model and a tokenizer trained on a few sentences, the
// way `gptnotes train` saves them: model.safetensors with the tokenizer's file name in its
// metadata, the tokenizer beside it.
func saveTinyCheckpoint(t *testing.T) string {
	t.Helper()
	text := strings.Repeat("the cat sat on the mat. the dog sat on the log. ", 20)
	tok, err := tokenizer.Train(text, 300, tokenizer.TrainOptions{Special: []string{tokenizer.EndOfText}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := tok.Save(filepath.Join(dir, "tiny.tok")); err != nil {
		t.Fatal(err)
	}
	cfg := gpt.Config{VocabSize: tok.VocabSize(), BlockSize: 16, Layers: 2, Heads: 2, Channels: 16}
	m, err := gpt.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(3, true)
	path := filepath.Join(dir, "tiny.safetensors")
	if err := gpt.Save(path, m, map[string]string{"tokenizer": "tiny.tok"}); err != nil {
		t.Fatal(err)
	}
	return path
}

func generateOut(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = runGenerate(args, &o, &e)
	return o.String(), e.String(), err
}

// The policy comes first, then the prompt and its continuation; the same seed gives the
// same text, and the cached loop the uncached loop's, past the block size too.
func TestGenerateCommand(t *testing.T) {
	path := saveTinyCheckpoint(t)
	out, errOut, err := generateOut(t, "--weights", path, "--prompt", "the cat", "--tokens", "40", "--temperature", "1", "--seed", "5")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(out, "\n", 3)
	if len(lines) < 3 || lines[0] != "# temperature 1, top-k 200, top-p off, seed 5; cached, window 16, keep 16 after a crop" ||
		!strings.HasPrefix(lines[1], "# weights: "+path) || !strings.HasPrefix(lines[2], "the cat") {
		t.Errorf("output:\n%s", out)
	}
	if !strings.Contains(errOut, "tokens/s") || !strings.Contains(errOut, "positions forwarded") {
		t.Errorf("stderr: %q", errOut)
	}
	again, _, _ := generateOut(t, "--weights", path, "--prompt", "the cat", "--tokens", "40", "--temperature", "1", "--seed", "5")
	if again != out {
		t.Errorf("same seed, different text:\n%s\n%s", out, again)
	}
	greedy, _, _ := generateOut(t, "--weights", path, "--prompt", "the cat", "--tokens", "40", "--temperature", "0")
	uncached, _, _ := generateOut(t, "--weights", path, "--prompt", "the cat", "--tokens", "40", "--temperature", "0", "--cached=false")
	body := func(s string) string { return s[strings.Index(s, "\n# weights"):] }
	if body(greedy) != body(uncached) {
		t.Errorf("greedy cached vs uncached:\n%s\n%s", greedy, uncached)
	}
}

func TestGenerateCommandErrors(t *testing.T) {
	path := saveTinyCheckpoint(t)
	if _, _, err := generateOut(t, "--weights", path, "--top-p", "2"); err == nil || !strings.Contains(err.Error(), "top-p") {
		t.Errorf("--top-p 2: %v", err)
	}
	if _, _, err := generateOut(t, "--weights", path, "--temperature", "-1"); err == nil || !strings.Contains(err.Error(), "temperature") {
		t.Errorf("--temperature -1: %v", err)
	}
	if _, _, err := generateOut(t, "--weights", filepath.Join(t.TempDir(), "none.safetensors")); err == nil {
		t.Error("a missing file: no error")
	}
	os.Remove(filepath.Join(filepath.Dir(path), "tiny.tok"))
	if _, _, err := generateOut(t, "--weights", path); err == nil || !strings.Contains(err.Error(), "tokenizer") {
		t.Errorf("missing tokenizer: %v", err)
	}
}

// A Hugging Face checkpoint (no gptnotes metadata) gets GPT-2's tokenizer.
func TestGenerateCommandHF(t *testing.T) {
	cfg := gpt.Config{VocabSize: 50257, BlockSize: 32, Layers: 1, Heads: 1, Channels: 64}
	m, err := gpt.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(4, true)
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if err := gpt.WriteSafetensors(f, m.Params.Tensors, gpt.DtypeF32, nil); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out, _, err := generateOut(t, "--weights", dir, "--prompt", "Hello, world", "--tokens", "5", "--temperature", "0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "(GPT-2 config: vocab 50257") || !strings.Contains(out, "\nHello, world") {
		t.Errorf("output:\n%s", out)
	}
}
