package tokenizer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// This file reads a Hugging Face GPT-2-style tokenizer directory:
// vocab.json (token → id) and merges.txt (one "left right" pair per line, in
// rank order). Hugging Face writes token bytes through GPT-2's
// bytes_to_unicode table, which maps every byte to a printable character
// (' ' → 'Ġ', '\n' → 'Ċ'), so the files stay readable text.

// byteRunes is GPT-2's bytes_to_unicode: printable Latin-1 bytes stand for
// themselves, the other 68 bytes get U+0100, U+0101, … in byte order.
var byteRunes = func() (t [256]rune) {
	n := 0
	for b := range 256 {
		if b >= '!' && b <= '~' || b >= 0xa1 && b <= 0xac || b >= 0xae && b <= 0xff {
			t[b] = rune(b)
		} else {
			t[b] = rune(256 + n)
			n++
		}
	}
	return t
}()

// hfText is how vocab.json and merges.txt write the bytes b.
func hfText(b []byte) string {
	var s strings.Builder
	for _, c := range b {
		s.WriteRune(byteRunes[c])
	}
	return s.String()
}

// FromHF loads a Hugging Face byte-level BPE tokenizer from dir, which must
// hold vocab.json and merges.txt (as GPT-2's checkpoints do). Vocabulary
// entries that are neither a byte nor a merge result, such as
// "<|endoftext|>", become special tokens. The pre-split is GPT-2's.
func FromHF(dir string) (*Tokenizer, error) {
	vocabPath, mergesPath := filepath.Join(dir, "vocab.json"), filepath.Join(dir, "merges.txt")
	data, err := os.ReadFile(vocabPath)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: hf: %w", err)
	}
	var vocab map[string]int
	if err := json.Unmarshal(data, &vocab); err != nil {
		return nil, fmt.Errorf("tokenizer: hf: %s: %w", vocabPath, err)
	}
	used := make(map[string]bool)
	var byteID [256]int32
	for b, r := range byteRunes {
		id, ok := vocab[string(r)]
		if !ok {
			return nil, fmt.Errorf("tokenizer: hf: %s has no token for byte 0x%02x (%q)", vocabPath, b, string(r))
		}
		byteID[b] = int32(id)
		used[string(r)] = true
	}

	f, err := os.Open(mergesPath)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: hf: %w", err)
	}
	defer f.Close()
	var merges []MergeRule
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#version") || strings.TrimSpace(text) == "" {
			continue
		}
		left, right, ok := strings.Cut(text, " ")
		if !ok || strings.Contains(right, " ") {
			return nil, fmt.Errorf("tokenizer: hf: %s:%d: want \"left right\", got %q", mergesPath, line, text)
		}
		l, okl := vocab[left]
		r, okr := vocab[right]
		id, okm := vocab[left+right]
		if !okl || !okr || !okm {
			return nil, fmt.Errorf("tokenizer: hf: %s:%d: %q, %q or %q is not in vocab.json", mergesPath, line, left, right, left+right)
		}
		merges = append(merges, MergeRule{Left: l, Right: r, ID: id})
		used[left+right] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tokenizer: hf: %s: %w", mergesPath, err)
	}
	special := make(map[string]int)
	for text, id := range vocab {
		if !used[text] {
			special[text] = id
		}
	}
	t, err := newTokenizer(SplitGPT2, byteID, merges, special, true)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: hf: %s: %w", dir, err)
	}
	return t, nil
}
