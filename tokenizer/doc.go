// Package tokenizer is a byte-level BPE tokenizer, grown the way minbpe
// grows, and GPT-2's own tokenizer built from it.
//
// Read the files in this order:
//
//	bpe.go        PairCounts and Merge, the two steps BPE is made of
//	split.go      the regex pre-split: GPT-2's pattern, written by hand
//	train.go      Train: learn merges from text (incremental pair counts)
//	tokenizer.go  the Tokenizer type: vocabulary, Token, Decode, DecodeBytes
//	encode.go     Encode, EncodeWithSpecial: the merge loop, made fast
//	gpt2.go       GPT2: GPT-2's ranks, read from tiktoken-go, turned into merges
//	hf.go         FromHF: a Hugging Face vocab.json + merges.txt
//	trace.go      EncodeTrace: every chunk and every merge, as text and HTML
//	tokens.go     Tokens: a token list that renders as coloured spans
//	save.go       Save and Load: one self-describing text format
//
// Usage:
//
//	tok, err := tokenizer.GPT2()
//	ids := tok.Encode("Hello world")   // [15496 995]
//	text := tok.Decode(ids)            // "Hello world"
//	mine, err := tokenizer.Train(corpus, 4096, tokenizer.TrainOptions{Special: []string{tokenizer.EndOfText}})
//
// A *Tokenizer has exactly the methods Encode(string) []int,
// Decode([]int) string and EndTokenID() int that the gpt package's generator
// asks for. Decode never fails: an id outside the vocabulary becomes U+FFFD;
// DecodeBytes returns an error naming such an id instead.
//
// Decoded bytes are never altered: tokens can end in the middle of a UTF-8
// character (GPT-2 splits most emoji over two or three tokens), so decoding a
// prefix of a token list can give a string ending in a partial character.
// Such a string still holds the exact bytes; the next tokens complete it.
package tokenizer
