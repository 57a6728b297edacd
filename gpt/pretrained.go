package gpt

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/gptnotes/gptnotes/tokenizer"
)

// ShippedModel is the file name of the small model gptnotes ships in testdata/, trained on Go
// source by `gptnotes train`; its tokenizer is beside it, named like it with ".tok".
const ShippedModel = "gopher.safetensors"

// Pretrained returns the trained model the notebooks use, its tokenizer, and one sentence
// saying which model it is and where it came from:
//
//  1. OpenAI's GPT-2, when Find finds its weights ($GPT2_WEIGHTS or the Hugging Face cache);
//     a model there that is not one of OpenAI's four sizes (a GPT-2-shaped test model, say)
//     is described as such;
//  2. otherwise the small model shipped with gptnotes (ShippedModel), found by
//     ShippedModelPath.
//
// Both are opened by Open, which finds their tokenizers.
//
// A notebook calls it once at the top and prints the description, so every figure after it
// says which weights made it.
func Pretrained() (*Model, *tokenizer.Tokenizer, string, error) {
	gpt2, findErr := Find()
	if findErr == nil {
		m, tok, err := Open(gpt2)
		if err != nil {
			return nil, nil, "", fmt.Errorf("gpt: pretrained: %w", err)
		}
		if !openAISize(m.Config) {
			return m, tok, fmt.Sprintf("A GPT-2-shaped model that is not one of OpenAI's four sizes "+
				"(%d blocks, width %d, %d heads, %d-token vocabulary, %s parameters) from %s.",
				m.Config.Layers, m.Config.Channels, m.Config.Heads, m.Config.VocabSize, Commas(m.Config.NumParams()), gpt2), nil
		}
		return m, tok, fmt.Sprintf("OpenAI's GPT-2 (%d blocks, width %d, %s parameters) from %s.",
			m.Config.Layers, m.Config.Channels, Commas(m.Config.NumParams()), gpt2), nil
	}
	path, err := ShippedModelPath()
	if err != nil {
		return nil, nil, "", fmt.Errorf("gpt: pretrained: no GPT-2 weights (%v), and %w", findErr, err)
	}
	m, tok, err := Open(path)
	if err != nil {
		return nil, nil, "", fmt.Errorf("gpt: pretrained: %w", err)
	}
	return m, tok, fmt.Sprintf("OpenAI's GPT-2 was not found, so this is the small model shipped with gptnotes, "+
		"trained on Go source (%d blocks, width %d, %d-token vocabulary, %s parameters) from %s. "+
		"Set GPT2_WEIGHTS to use GPT-2.",
		m.Config.Layers, m.Config.Channels, m.Config.VocabSize, Commas(m.Config.NumParams()), path), nil
}

// openAISize says whether cfg is one of the four sizes OpenAI released.
func openAISize(cfg Config) bool {
	return cfg == Small || cfg == Medium || cfg == Large || cfg == XL
}

// ShippedModelPath finds the shipped model file. It looks, in order, at:
//
//  1. $GPTNOTES_MODEL, a model file written by `gptnotes train` (its tokenizer beside it);
//     when it is set, nothing else is searched;
//  2. testdata/gopher.safetensors under the working directory and under its parent (a
//     notebook's kernel runs in notebooks/, so ../testdata is the repository's);
//  3. testdata/ of the source tree this package was compiled from, a path recorded at build
//     time (it holds for `go build` and `go install` from a checkout or the module cache,
//     not for a binary built with -trimpath and moved away).
//
// The error lists every place it looked.
func ShippedModelPath() (string, error) {
	if p := os.Getenv("GPTNOTES_MODEL"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("gpt: shipped model: GPTNOTES_MODEL: %w", err)
		}
		return p, nil
	}
	p, looked := findIn(ShippedModel, "testdata", filepath.Join("..", "testdata"), sourceTestdata())
	if p == "" {
		return "", fmt.Errorf("gpt: shipped model %s not found (set GPTNOTES_MODEL); looked in %s",
			ShippedModel, strings.Join(looked, ", "))
	}
	return p, nil
}

// LessonModel is the file name of the lesson model of notebook 3c: a two-layer,
// attention-only model trained on the shipped corpus with its tokenizer (induction.tok beside
// it, which its metadata names: the same file as gopher.tok), small enough to show induction
// heads where the shipped model has none.
const LessonModel = "induction.safetensors"

// LessonModelPath finds the lesson model file as ShippedModelPath finds the shipped one,
// looking, in order, at:
//
//  1. $GPTNOTES_LESSON_MODEL; when it is set, nothing else is searched;
//  2. the folder of the shipped model (ShippedModelPath's answer), so a class that sets
//     GPTNOTES_MODEL=/course/gopher.safetensors finds /course/induction.safetensors;
//  3. testdata/ under the working directory, under its parent, and of the source tree.
//
// The error lists every place it looked.
func LessonModelPath() (string, error) {
	if p := os.Getenv("GPTNOTES_LESSON_MODEL"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("gpt: lesson model: GPTNOTES_LESSON_MODEL: %w", err)
		}
		return p, nil
	}
	dirs := []string{"testdata", filepath.Join("..", "testdata"), sourceTestdata()}
	if shipped, err := ShippedModelPath(); err == nil {
		dirs = append([]string{filepath.Dir(shipped)}, dirs...)
	}
	p, looked := findIn(LessonModel, dirs...)
	if p == "" {
		return "", fmt.Errorf("gpt: lesson model %s not found (set GPTNOTES_LESSON_MODEL); looked in %s",
			LessonModel, strings.Join(looked, ", "))
	}
	return p, nil
}

// Lesson opens the lesson model (LessonModelPath) with its tokenizer and one sentence saying
// which model it is and where it came from, as Pretrained does for the notebooks' model.
func Lesson() (*Model, *tokenizer.Tokenizer, string, error) {
	path, err := LessonModelPath()
	if err != nil {
		return nil, nil, "", err
	}
	m, tok, err := Open(path)
	if err != nil {
		return nil, nil, "", fmt.Errorf("gpt: lesson model: %w", err)
	}
	kind := "blocks of attention and MLP"
	if m.Config.AttnOnly {
		kind = "attention-only blocks"
	}
	return m, tok, fmt.Sprintf("The lesson model: %d %s, %d heads of %d channels each, a %d-token vocabulary, %s parameters, from %s.",
		m.Config.Layers, kind, m.Config.Heads, m.Config.HeadSize(), m.Config.VocabSize, Commas(m.Config.NumParams()), path), nil
}

// findIn returns the first of dir/name over dirs that is a file (absolute), or "" and every
// path it tried. An empty dir is skipped.
func findIn(name string, dirs ...string) (found string, looked []string) {
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if slices.Contains(looked, p) {
			continue
		}
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
		looked = append(looked, p)
	}
	return "", looked
}

// sourceTestdata is the repository's testdata/ as seen from this file when it was compiled,
// or "" when the path was trimmed. A Windows binary cross-compiled on Linux or macOS records a
// path like /home/x/gptnotes/gpt/pretrained.go, which Windows reads on the current drive (under
// wine, whose Z: is /, the same file).
func sourceTestdata() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !(filepath.IsAbs(file) || strings.HasPrefix(file, "/")) {
		return ""
	}
	return filepath.Join(filepath.Dir(file), "..", "testdata")
}
