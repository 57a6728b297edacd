package tokenizer

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// MergeRule is one learned merge: the adjacent tokens Left and Right become
// the token ID. A tokenizer's rules are kept in rank order; the rule at index
// r has rank r, and lower ranks merge first.
type MergeRule struct {
	Left, Right int // ids of the pair, e.g. 220 and 220 ("␣" "␣")
	ID          int // id of the merged token, e.g. 256 ("␣␣")
}

// Tokenizer is a byte-level BPE tokenizer: a pre-split, 256 one-byte tokens,
// merge rules in rank order and special tokens. Build one with Train, GPT2,
// FromHF or Load. It is safe for concurrent use.
//
// Every id in [0, VocabSize()) is exactly one of: a one-byte token, the result
// of one merge rule, or a special token.
type Tokenizer struct {
	split   string         // SplitGPT2 or SplitNone
	byteID  [256]int32     // byte value → id of its one-byte token
	merges  []MergeRule    // (number of merges) in rank order
	vocab   [][]byte       // (V) id → the bytes the token stands for
	special map[string]int // special token text → id, e.g. "<|endoftext|>" → 50256
	isSpec  []bool         // (V) id → whether it is a special token
	pairs   pairTable      // (Left, Right) → rank, for the merge loop
	whole   wholeTable     // chunk text → id, for every token the merges rebuild whole
	endID   int            // id of <|endoftext|>, or -1
	cache   *chunkCache    // recent chunks the merge loop encoded
}

// EndOfText is GPT-2's end-of-text special token; EndTokenID returns its id.
const EndOfText = "<|endoftext|>"

// ErrUnknownID is wrapped by the errors for a token id outside the vocabulary.
var ErrUnknownID = errors.New("tokenizer: unknown token id")

// newTokenizer checks the parts of a tokenizer and builds its tables.
// Rules must be in rank order and may only use ids made before them (one-byte
// tokens or results of earlier rules), and the ids of bytes, rule results and
// specials must together be 0..V-1, each once. checkWhole asks to find, for
// every merged token, whether the merge loop rebuilds it from its bytes (the
// fast path of Encode); constructors that already know pass false and fill
// t.whole themselves.
func newTokenizer(split string, byteID [256]int32, merges []MergeRule, special map[string]int, checkWhole bool) (*Tokenizer, error) {
	if split != SplitGPT2 && split != SplitNone {
		return nil, fmt.Errorf("unknown pre-split %q (want %q or %q)", split, SplitGPT2, SplitNone)
	}
	size := 256 + len(merges) + len(special)
	if size > maxVocab || len(merges) > rankMask {
		return nil, fmt.Errorf("%d tokens is more than this package supports (%d)", size, maxVocab)
	}
	t := &Tokenizer{
		split:   split,
		byteID:  byteID,
		merges:  merges,
		vocab:   make([][]byte, size),
		special: make(map[string]int, len(special)),
		isSpec:  make([]bool, size),
		pairs:   newPairTable(len(merges)),
		whole:   newWholeTable(size),
		endID:   -1,
		cache:   new(chunkCache),
	}

	// First pass: check the ids and find every token's length.
	length := make([]int, size) // 0 while the id is unclaimed
	claim := func(id, n int, what func() string) error {
		if id < 0 || id >= size {
			return fmt.Errorf("%s has id %d, outside [0, %d)", what(), id, size)
		}
		if length[id] != 0 {
			return fmt.Errorf("%s has id %d, which another token has already", what(), id)
		}
		length[id] = n
		return nil
	}
	for b, id := range byteID {
		if err := claim(int(id), 1, func() string { return fmt.Sprintf("byte 0x%02x", b) }); err != nil {
			return nil, err
		}
	}
	for r, m := range merges {
		what := func() string { return fmt.Sprintf("merge %d (%d %d)", r, m.Left, m.Right) }
		for _, part := range [2]int{m.Left, m.Right} {
			if part < 0 || part >= size || length[part] == 0 || t.isSpec[part] {
				return nil, fmt.Errorf("%s uses id %d, which no earlier byte or merge makes", what(), part)
			}
		}
		if err := claim(m.ID, length[m.Left]+length[m.Right], what); err != nil {
			return nil, err
		}
		if prev := t.pairs.rank(int32(m.Left), int32(m.Right)); prev != noRank {
			return nil, fmt.Errorf("%s repeats the pair of merge %d", what(), prev)
		}
		t.pairs.insert(int32(m.Left), int32(m.Right), int32(r))
	}
	for text, id := range special {
		if text == "" {
			return nil, fmt.Errorf("special token with id %d has empty text", id)
		}
		if err := claim(id, len(text), func() string { return fmt.Sprintf("special token %q", text) }); err != nil {
			return nil, err
		}
		t.isSpec[id] = true
		t.special[text] = id
		if text == EndOfText {
			t.endID = id
		}
	}

	// Second pass: lay every token's bytes out in one array, in id order.
	start := make([]uint32, size+1)
	for id, n := range length {
		start[id+1] = start[id] + uint32(n)
	}
	arena := make([]byte, start[size])
	for id := range t.vocab {
		t.vocab[id] = arena[start[id]:start[id+1]:start[id+1]]
	}
	for b, id := range byteID {
		t.vocab[id][0] = byte(b)
	}
	for _, m := range merges {
		n := copy(t.vocab[m.ID], t.vocab[m.Left])
		copy(t.vocab[m.ID][n:], t.vocab[m.Right])
	}
	for text, id := range special {
		copy(t.vocab[id], text)
	}
	t.whole.bytes, t.whole.start = arena, start
	for _, id := range byteID {
		t.whole.add(t.vocab[id], id)
	}
	if checkWhole {
		var buf []int
		for _, m := range merges {
			buf = t.mergeChunk(buf[:0], string(t.vocab[m.ID]))
			if len(buf) == 1 && buf[0] == m.ID {
				t.whole.add(t.vocab[m.ID], int32(m.ID))
			}
		}
	}
	return t, nil
}

// String summarizes t, e.g. "tokenizer: 50257 tokens (256 bytes, 50000
// merges, 1 special), pre-split gpt2"; it keeps a notebook cell that shows a
// tokenizer from printing its whole vocabulary.
func (t *Tokenizer) String() string {
	return fmt.Sprintf("tokenizer: %d tokens (256 bytes, %d merges, %d special), pre-split %s", len(t.vocab), len(t.merges), len(t.special), t.split)
}

// VocabSize is the number of token ids, e.g. 50257 for GPT-2.
func (t *Tokenizer) VocabSize() int { return len(t.vocab) }

// EndTokenID is the id of <|endoftext|> (50256 for GPT-2), or -1 if the
// tokenizer has no such special token.
func (t *Tokenizer) EndTokenID() int { return t.endID }

// Pattern names the pre-split: SplitGPT2 or SplitNone.
func (t *Tokenizer) Pattern() string { return t.split }

// Merges returns the merge rules in rank order (a copy).
func (t *Tokenizer) Merges() []MergeRule { return append([]MergeRule(nil), t.merges...) }

// SpecialTokens returns the special tokens' texts, ordered by id.
func (t *Tokenizer) SpecialTokens() []string {
	var texts []string
	for text := range t.special {
		texts = append(texts, text)
	}
	sort.Slice(texts, func(i, j int) bool { return t.special[texts[i]] < t.special[texts[j]] })
	return texts
}

// SpecialID returns the id of the special token text, if there is one.
func (t *Tokenizer) SpecialID(text string) (int, bool) {
	id, ok := t.special[text]
	return id, ok
}

// IsSpecial reports whether id is a special token.
func (t *Tokenizer) IsSpecial(id int) bool { return id >= 0 && id < len(t.isSpec) && t.isSpec[id] }

// Token returns the bytes token id stands for (a copy), or nil if id is
// outside the vocabulary. A token may hold part of a UTF-8 character:
// GPT-2's id 164 is the single byte 0xe2.
func (t *Tokenizer) Token(id int) []byte {
	if id < 0 || id >= len(t.vocab) {
		return nil
	}
	return append([]byte(nil), t.vocab[id]...)
}

// DecodeBytes concatenates the bytes of ids. An id outside the vocabulary is
// an error (wrapping ErrUnknownID) that names it and its position.
func (t *Tokenizer) DecodeBytes(ids []int) ([]byte, error) {
	var out []byte
	for i, id := range ids {
		if id < 0 || id >= len(t.vocab) {
			return nil, fmt.Errorf("tokenizer: decode: id %d at position %d: %w (vocabulary size %d)", id, i, ErrUnknownID, len(t.vocab))
		}
		out = append(out, t.vocab[id]...)
	}
	return out, nil
}

// Decode returns the text of ids: their bytes concatenated, unchanged, so
// Decode(Encode(s)) == s for any s, valid UTF-8 or not. Decoding a prefix of
// the ids can end inside a character; those bytes are returned as they are
// (a Go string may hold any bytes) and the next tokens complete them; use
// strings.ToValidUTF8 to display such a string. An id outside the vocabulary
// decodes to U+FFFD "�"; use DecodeBytes to get an error for it instead.
func (t *Tokenizer) Decode(ids []int) string {
	var b strings.Builder
	for _, id := range ids {
		if id < 0 || id >= len(t.vocab) {
			b.WriteRune(utf8.RuneError)
			continue
		}
		b.Write(t.vocab[id])
	}
	return b.String()
}
