package tokenizer

import (
	"fmt"
	"sync"

	"github.com/tiktoken-go/tokenizer/codec"
)

// This file builds GPT-2's own tokenizer offline. GPT-2's vocabulary is
// tiktoken's r50k_base: a rank for each of 50,256 byte strings (rank = token
// id), plus <|endoftext|> = 50256. github.com/tiktoken-go/tokenizer compiles
// those ranks into its codec package as a Go map literal
// (codec/r50k_base_vocab.go); its Decode turns an id back into its bytes, so
// the whole table can be read out without touching the network. From the
// ranks we rebuild the merge rules GPT-2's merges.txt lists.

var (
	gpt2Once sync.Once
	gpt2Tok  *Tokenizer
	gpt2Err  error
)

// GPT2 returns GPT-2's tokenizer (50,257 tokens, pre-split GPT2Pattern,
// <|endoftext|> = 50256). It is built once, on the first call, and shared:
// Tokenizer is read-only and safe for concurrent use.
func GPT2() (*Tokenizer, error) {
	gpt2Once.Do(func() { gpt2Tok, gpt2Err = buildGPT2() })
	return gpt2Tok, gpt2Err
}

// MustGPT2 is GPT2 for package-level variables and notebook cells; it panics
// if the tokenizer cannot be built (only a broken tiktoken-go module can do
// that).
func MustGPT2() *Tokenizer {
	t, err := GPT2()
	if err != nil {
		panic(err)
	}
	return t
}

// gpt2Vocab is r50k_base's number of ranked tokens; <|endoftext|> follows.
const gpt2Vocab = 50256

func buildGPT2() (*Tokenizer, error) {
	c := codec.NewR50kBase()
	tokens := make([][]byte, gpt2Vocab)
	ids := []uint{0}
	for id := range tokens {
		ids[0] = uint(id)
		s, err := c.Decode(ids)
		if err != nil {
			return nil, fmt.Errorf("tokenizer: gpt2: read rank %d from tiktoken-go r50k_base: %w", id, err)
		}
		tokens[id] = []byte(s)
	}
	t, err := fromRanks(tokens, map[string]int{EndOfText: gpt2Vocab})
	if err != nil {
		return nil, fmt.Errorf("tokenizer: gpt2: %w", err)
	}
	return t, nil
}

// fromRanks rebuilds merge rules from a tiktoken rank table (tokens[id] is
// the byte string of rank id; every byte is a token of its own). The rule
// that makes a token of rank r is found by running the merge loop on its
// bytes with the rules of lower ranks only: that must leave exactly two
// parts, which are the pair. This is how tiktoken turns ranks back into
// merges.txt.
func fromRanks(tokens [][]byte, special map[string]int) (*Tokenizer, error) {
	var byteID [256]int32
	seen := 0
	for id, tok := range tokens {
		if len(tok) == 1 {
			byteID[tok[0]] = int32(id)
			seen++
		}
	}
	if seen != 256 {
		return nil, fmt.Errorf("rank table has %d one-byte tokens, want 256", seen)
	}
	// Build the tokenizer up rule by rule: t.mergeChunk only uses the rules
	// inserted so far.
	t, err := newTokenizer(SplitGPT2, byteID, nil, nil, false)
	if err != nil {
		return nil, err
	}
	t.pairs = newPairTable(len(tokens))
	var parts []int
	for id, tok := range tokens {
		if len(tok) == 1 {
			continue
		}
		parts = t.mergeChunk(parts[:0], string(tok))
		if len(parts) != 2 {
			return nil, fmt.Errorf("rank %d %q: lower ranks merge its bytes into %d parts, want 2", id, tok, len(parts))
		}
		rank := int32(len(t.merges))
		t.merges = append(t.merges, MergeRule{Left: parts[0], Right: parts[1], ID: id})
		t.pairs.insert(int32(parts[0]), int32(parts[1]), rank)
	}
	// Check the rebuilt rules and build the tables; every token is whole by
	// construction (its bytes merge into exactly its own id).
	full, err := newTokenizer(SplitGPT2, byteID, t.merges, special, false)
	if err != nil {
		return nil, err
	}
	for _, m := range full.merges {
		full.whole.add(full.vocab[m.ID], int32(m.ID))
	}
	return full, nil
}
