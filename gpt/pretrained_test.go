package gpt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/tokenizer"
)

// shipTiny writes a Tiny-shaped model and a tokenizer of the same vocabulary into dir, as
// `gptnotes train --out dir/gopher.safetensors` would, and returns the model.
func shipTiny(t *testing.T, dir string, vocab int) *Model {
	t.Helper()
	text := strings.Repeat("func main() { fmt.Println(\"hello, gopher\") }\n", 40)
	tok, err := tokenizer.Train(text, vocab, tokenizer.TrainOptions{Special: []string{tokenizer.EndOfText}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Tiny
	cfg.VocabSize = tok.VocabSize()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(7, true)
	if err := Save(filepath.Join(dir, ShippedModel), m, nil); err != nil {
		t.Fatal(err)
	}
	if err := tok.Save(filepath.Join(dir, "gopher.tok")); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPretrainedFallsBackToTheShippedModel(t *testing.T) {
	dir := t.TempDir()
	want := shipTiny(t, dir, 300)
	t.Setenv("GPT2_WEIGHTS", filepath.Join(dir, "no-such-gpt2"))
	t.Setenv("GPTNOTES_MODEL", filepath.Join(dir, ShippedModel))
	m, tok, about, err := Pretrained()
	if err != nil {
		t.Fatal(err)
	}
	if m.Config != want.Config || tok.VocabSize() != want.Config.VocabSize {
		t.Errorf("got config %v and %d tokens, want %v", m.Config, tok.VocabSize(), want.Config)
	}
	for i, w := range want.Params.Data {
		if m.Params.Data[i] != w {
			t.Fatalf("parameter %d = %v, want %v", i, m.Params.Data[i], w)
		}
	}
	for _, s := range []string{"GPT-2 was not found", "2 blocks, width 32", ShippedModel} {
		if !strings.Contains(about, s) {
			t.Errorf("description %q lacks %q", about, s)
		}
	}
}

func TestPretrainedPrefersGPT2(t *testing.T) {
	// The reference checkpoint is GPT-2 shaped but has 300 tokens and no tokenizer beside it:
	// Pretrained finds it, and Open refuses to pair it with GPT-2's 50,257-token tokenizer.
	t.Setenv("GPT2_WEIGHTS", filepath.Join("testdata", "reference", "model.safetensors"))
	_, _, _, err := Pretrained()
	if err == nil || !strings.Contains(err.Error(), "its vocabulary is not GPT-2's") {
		t.Errorf("err = %v, want the vocabulary mismatch", err)
	}
}

func TestPretrainedSaysWhenGPT2WeightsAreNotOpenAIs(t *testing.T) {
	// A model with GPT-2's vocabulary and context but two narrow blocks, where GPT2_WEIGHTS
	// points: it opens with GPT-2's tokenizer, and the description does not call it OpenAI's.
	cfg := Config{VocabSize: 50257, BlockSize: 1024, Layers: 2, Heads: 2, Channels: 8}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(3, true)
	path := filepath.Join(t.TempDir(), "model.safetensors")
	if err := Save(path, m, map[string]string{"tokenizer": "gpt2"}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GPT2_WEIGHTS", path)
	got, tok, about, err := Pretrained()
	if err != nil {
		t.Fatal(err)
	}
	if got.Config != cfg || tok.VocabSize() != 50257 {
		t.Errorf("got %v and %d tokens, want %v and GPT-2's tokenizer", got.Config, tok.VocabSize(), cfg)
	}
	want := "A GPT-2-shaped model that is not one of OpenAI's four sizes (2 blocks, width 8, 2 heads, 50257-token vocabulary, 412,008 parameters) from " + path + "."
	if about != want {
		t.Errorf("description\n%s\nwant\n%s", about, want)
	}
	for _, size := range []Config{Small, Medium, Large, XL} {
		if !openAISize(size) {
			t.Errorf("%v is one of OpenAI's sizes", size)
		}
	}
}

func TestShippedModelPathSearchesTestdata(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "testdata"), 0o755); err != nil {
		t.Fatal(err)
	}
	shipTiny(t, filepath.Join(dir, "testdata"), 280)
	nb := filepath.Join(dir, "notebooks")
	if err := os.Mkdir(nb, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GPTNOTES_MODEL", "")
	t.Chdir(nb) // a kernel runs in notebooks/: ../testdata is found
	got, err := ShippedModelPath()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "testdata", ShippedModel); got != want {
		t.Errorf("ShippedModelPath() = %s, want %s", got, want)
	}

	t.Setenv("GPTNOTES_MODEL", filepath.Join(dir, "missing.safetensors"))
	if _, err := ShippedModelPath(); err == nil || !strings.Contains(err.Error(), "GPTNOTES_MODEL") {
		t.Errorf("err = %v, want one naming GPTNOTES_MODEL", err)
	}
}

// The lesson model is found beside the shipped one (a class's GPTNOTES_MODEL), opens with the
// shipped tokenizer its metadata names, and says it is attention-only.
func TestLessonModelPathLooksBesideTheShippedModel(t *testing.T) {
	dir := t.TempDir()
	shipped := shipTiny(t, dir, 290)
	cfg := shipped.Config
	cfg.Layers, cfg.AttnOnly = 2, true
	lesson, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lesson.Init(3, true)
	if err := Save(filepath.Join(dir, LessonModel), lesson, map[string]string{"tokenizer": "gopher.tok"}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GPT2_WEIGHTS", "")
	t.Setenv("GPTNOTES_LESSON_MODEL", "")
	t.Setenv("GPTNOTES_MODEL", filepath.Join(dir, ShippedModel))
	t.Chdir(t.TempDir()) // no testdata/ here or above
	got, err := LessonModelPath()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, LessonModel); got != want {
		t.Errorf("LessonModelPath() = %s, want %s", got, want)
	}
	m, tok, about, err := Lesson()
	if err != nil {
		t.Fatal(err)
	}
	if !m.Config.AttnOnly || m.Config.Layers != 2 || tok.VocabSize() != cfg.VocabSize {
		t.Errorf("Lesson() opened %+v with a tokenizer of %d tokens", m.Config, tok.VocabSize())
	}
	if !strings.Contains(about, "2 attention-only blocks") || !strings.Contains(about, got) {
		t.Errorf("Lesson() says %q", about)
	}

	t.Setenv("GPTNOTES_LESSON_MODEL", filepath.Join(dir, "missing.safetensors"))
	if _, err := LessonModelPath(); err == nil || !strings.Contains(err.Error(), "GPTNOTES_LESSON_MODEL") {
		t.Errorf("err = %v, want one naming GPTNOTES_LESSON_MODEL", err)
	}
}
