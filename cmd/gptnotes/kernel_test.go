package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
)

// A confined kernel (a graded notebook's, a class's) may read the lesson model of notebook 3c
// and the tokenizer its metadata names, as it may read the shipped model's.
func TestModelFilesIncludeTheLessonModel(t *testing.T) {
	dir := t.TempDir()
	tokData, err := os.ReadFile(filepath.Join("..", "..", "testdata", "gopher.tok"))
	if err != nil {
		t.Skip(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gopher.tok"), tokData, 0o644); err != nil {
		t.Fatal(err)
	}
	shipped, _, err := gpt.Open(filepath.Join("..", "..", "testdata", gpt.ShippedModel))
	if err != nil {
		t.Skip(err)
	}
	m, err := gpt.New(gpt.Config{VocabSize: shipped.Config.VocabSize, BlockSize: 16, Layers: 2, Heads: 2, Channels: 8, AttnOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	m.Init(1, true)
	lesson := filepath.Join(dir, gpt.LessonModel)
	if err := gpt.Save(lesson, m, map[string]string{"tokenizer": "gopher.tok"}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GPTNOTES_LESSON_MODEL", lesson)
	files := modelFiles()
	for _, want := range []string{lesson, filepath.Join(dir, "gopher.tok")} {
		if !slices.Contains(files, want) {
			t.Errorf("modelFiles() = %v, without %s", files, want)
		}
	}
}
