package tokenizer

import (
	"unicode"
	"unicode/utf8"
)

// This file is the regex pre-split of minbpe's regex.py: text is cut into
// chunks first and merges never cross a chunk boundary, so " dog" and "dog."
// share the token "dog" instead of every punctuation variant getting its own.

// GPT2Pattern is the pre-split pattern of GPT-2 (and tiktoken's r50k_base).
// Go's regexp cannot run it, because of the lookahead in `\s+(?!\S)`, so
// Split implements it by hand; split_test.go checks Split against
// github.com/dlclark/regexp2 running this pattern.
const GPT2Pattern = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

// Pre-split names accepted by TrainOptions.Pattern and written by Save.
const (
	SplitGPT2 = "gpt2" // GPT2Pattern
	SplitNone = "none" // no pre-split: the whole text is one chunk, as minbpe's basic.py
)

// Split cuts text into the chunks GPT2Pattern matches, in order; joined they
// give text back. Invalid UTF-8 bytes count as one symbol character each
// (U+FFFD is a symbol), which is how regexp2 sees them.
//
//	"Hello world's  end\n" → ["Hello" " world" "'s" " " " end" "\n"]
func Split(text string) []string {
	var chunks []string
	for i := 0; i < len(text); {
		j := nextChunk(text, i)
		chunks = append(chunks, text[i:j])
		i = j
	}
	return chunks
}

// Character classes of GPT2Pattern: \p{L}, \p{N}, \s, and everything else.
const (
	classOther uint8 = iota
	classLetter
	classNumber
	classSpace
)

// asciiClass is the class of every ASCII byte, so the common case needs no
// Unicode tables.
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := range utf8.RuneSelf {
		t[c] = runeClass(rune(c))
	}
	return t
}()

// runeClass classifies r with the same tables regexp2 uses: unicode.L for
// \p{L}, unicode.N for \p{N}, unicode.IsSpace for \s.
func runeClass(r rune) uint8 {
	switch {
	case unicode.IsLetter(r):
		return classLetter
	case unicode.IsNumber(r):
		return classNumber
	case unicode.IsSpace(r):
		return classSpace
	}
	return classOther
}

// classAt returns the class of the character starting at s[i] and its width
// in bytes. An invalid byte is a one-byte classOther.
func classAt(s string, i int) (uint8, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiClass[c], 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n == 1 {
		return classOther, 1
	}
	return runeClass(r), n
}

// nextChunk returns the end of the chunk GPT2Pattern matches at s[i:], trying
// the alternatives in the pattern's order. i < len(s).
func nextChunk(s string, i int) int {
	// 's|'t|'re|'ve|'m|'ll|'d
	if s[i] == '\'' && i+1 < len(s) {
		switch s[i+1] {
		case 's', 't', 'm', 'd':
			return i + 2
		case 'r', 'v':
			if i+2 < len(s) && s[i+2] == 'e' {
				return i + 3
			}
		case 'l':
			if i+2 < len(s) && s[i+2] == 'l' {
				return i + 3
			}
		}
	}

	// ` ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+`: an optional space, then a run of
	// one class. The space only belongs to the run if a non-space follows it.
	j := i
	if s[i] == ' ' && i+1 < len(s) {
		if c, _ := classAt(s, i+1); c != classSpace {
			j = i + 1
		}
	}
	cls, n := classAt(s, j)
	if cls != classSpace {
		j += n
		for j < len(s) {
			if c := s[j]; c < utf8.RuneSelf { // ASCII, the common case, without a call
				if asciiClass[c] != cls {
					break
				}
				j++
				continue
			}
			c, n := classAt(s, j)
			if c != cls {
				break
			}
			j += n
		}
		return j
	}

	// `\s+(?!\S)|\s+`: a whitespace run. Unless it reaches the end of the text,
	// its last character is left to start the next chunk (" x" in "\n\n x"),
	// except when the run is that one character.
	last := j
	for j < len(s) {
		c, n := classAt(s, j)
		if c != classSpace {
			break
		}
		last = j
		j += n
	}
	if j < len(s) && last > i {
		return last
	}
	return j
}
