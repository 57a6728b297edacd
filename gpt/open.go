package gpt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gptnotes/gptnotes/tokenizer"
)

// Open opens the model at path with its tokenizer. path is any of the files a model lives in:
//
//   - a Hugging Face checkpoint: its model.safetensors, or the directory holding it (LoadHF);
//   - a model saved by Save or `gptnotes train` (Load);
//   - a training checkpoint written by Trainer.SaveCheckpoint, e.g. gopher.safetensors.ckpt
//     while `gptnotes train` runs (LoadTrainCheckpoint).
//
// Its tokenizer is found by one rule for all three, the first that applies:
//
//  1. the one its metadata names: "tokenizer": "gpt2" is GPT-2's own, any other name a
//     tokenizer file beside the model (Save's meta, as `gptnotes train` writes it);
//  2. a tokenizer file beside it named like it with .tok for its extension, or with .tok
//     added (gopher.safetensors → gopher.tok; gopher.safetensors.ckpt → gopher.safetensors.ckpt.tok);
//  3. a Hugging Face vocab.json and merges.txt beside it (tokenizer.FromHF);
//  4. GPT-2's own, when the model has GPT-2's vocabulary of 50,257 tokens.
//
// The tokenizer's vocabulary must be the model's.
func Open(path string) (*Model, *tokenizer.Tokenizer, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, "model.safetensors")
	}
	s, err := OpenSafetensors(path)
	if err != nil {
		return nil, nil, fmt.Errorf("gpt: open: %w", err)
	}
	meta := s.Metadata
	s.Close()
	var m *Model
	switch {
	case meta[TrainStateKey] != "":
		m, _, err = LoadTrainCheckpoint(path)
	case meta["n_layer"] != "":
		m, _, err = Load(path)
	default:
		m, err = LoadHF(path)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("gpt: open: %w", err)
	}
	tok, tokPath, err := tokenizerFor(path, meta, m.Config.VocabSize)
	if err != nil {
		return nil, nil, fmt.Errorf("gpt: open %s: tokenizer: %w", path, err)
	}
	if tok.VocabSize() != m.Config.VocabSize {
		return nil, nil, fmt.Errorf("gpt: open %s: its tokenizer %s has %d tokens, the model %d",
			path, tokPath, tok.VocabSize(), m.Config.VocabSize)
	}
	return m, tok, nil
}

// gpt2Vocab is the size of GPT-2's vocabulary.
const gpt2Vocab = 50257

// tokenizerFor finds the tokenizer of the model at path by Open's rule (tokenizerSource), and
// says where it came from.
func tokenizerFor(path string, meta map[string]string, vocab int) (*tokenizer.Tokenizer, string, error) {
	tokFile, hfDir := tokenizerSource(path, meta)
	switch {
	case tokFile != "":
		tok, err := tokenizer.Load(tokFile)
		return tok, tokFile, err
	case hfDir != "":
		tok, err := tokenizer.FromHF(hfDir)
		return tok, hfDir, err
	case meta["tokenizer"] == "gpt2" || vocab == gpt2Vocab:
		tok, err := tokenizer.GPT2()
		return tok, "GPT-2's", err
	}
	return nil, "", errors.New("its metadata names none, there is no .tok file beside it, " +
		"no vocab.json and merges.txt, and its vocabulary is not GPT-2's")
}

// tokenizerSource is where Open's rule finds the tokenizer of the model at path: the .tok file
// its metadata names beside it, else a .tok file named after it, else a Hugging Face folder
// (its own, with vocab.json and merges.txt); neither ("", "") for GPT-2's own, built in,
// which a model whose metadata says "gpt2", or with GPT-2's vocabulary, uses.
func tokenizerSource(path string, meta map[string]string) (tokFile, hfDir string) {
	dir := filepath.Dir(path)
	if name := meta["tokenizer"]; name == "gpt2" {
		return "", ""
	} else if name != "" {
		return filepath.Join(dir, name), ""
	}
	for _, p := range []string{strings.TrimSuffix(path, filepath.Ext(path)) + ".tok", path + ".tok"} {
		if _, err := os.Stat(p); err == nil {
			return p, ""
		}
	}
	if exists(filepath.Join(dir, "vocab.json")) && exists(filepath.Join(dir, "merges.txt")) {
		return "", dir
	}
	return "", ""
}

// Files lists the files Open reads for the model at path (a file, or a folder holding
// model.safetensors): the model's file, the config.json beside a Hugging Face checkpoint
// (LoadHF reads it), then its tokenizer's (none for GPT-2's own, which is built in).
// `gptnotes grade` lets a submission read these and nothing else of their folder.
func Files(path string) ([]string, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, "model.safetensors")
	}
	s, err := OpenSafetensors(path)
	if err != nil {
		return nil, fmt.Errorf("gpt: files: %w", err)
	}
	meta := s.Metadata
	s.Close()
	files := []string{path}
	if config := filepath.Join(filepath.Dir(path), "config.json"); meta[TrainStateKey] == "" && meta["n_layer"] == "" && exists(config) {
		files = append(files, config)
	}
	switch tokFile, hfDir := tokenizerSource(path, meta); {
	case tokFile != "":
		files = append(files, tokFile)
	case hfDir != "":
		files = append(files, filepath.Join(hfDir, "vocab.json"), filepath.Join(hfDir, "merges.txt"))
	}
	return files, nil
}

// exists says whether path names a file.
func exists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}
