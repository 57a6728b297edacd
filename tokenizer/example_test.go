package tokenizer_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gptnotes/gptnotes/tokenizer"
)

func ExamplePairCounts() {
	fmt.Println(tokenizer.PairCounts([]int{1, 2, 3, 1, 2}))
	fmt.Println(tokenizer.Merge([]int{1, 2, 3, 1, 2}, tokenizer.Pair{Left: 1, Right: 2}, 4))
	// Output:
	// map[{1 2}:2 {2 3}:1 {3 1}:1]
	// [4 3 4]
}

func ExampleSplit() {
	fmt.Printf("%q\n", tokenizer.Split("Hello world's  end\n\n  x"))
	// Output:
	// ["Hello" " world" "'s" " " " end" "\n\n " " x"]
}

func ExampleTrain() {
	tok, err := tokenizer.Train("aaabdaaabac", 256+3, tokenizer.TrainOptions{
		Progress: func(s tokenizer.TrainStep) { fmt.Println(s) },
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(tok.Encode("aaabdaaabac"))
	// Output:
	// merge 1/3: (97 97) → 256 "aa" (4 times)
	// merge 2/3: (97 98) → 257 "ab" (2 times)
	// merge 3/3: (256 257) → 258 "aaab" (2 times)
	// [258 100 258 97 99]
}

func ExampleGPT2() {
	tok, err := tokenizer.GPT2()
	if err != nil {
		panic(err)
	}
	fmt.Println(tok)
	ids := tok.Encode("Hello world<|endoftext|>")
	fmt.Println(ids)
	fmt.Println(tok.EncodeWithSpecial("Hello world<|endoftext|>", []string{tokenizer.EndOfText}))
	fmt.Printf("%q\n", tok.Decode(ids))
	fmt.Println(tok.Tokens(tok.Encode("😀!")))
	_, err = tok.DecodeBytes([]int{15496, 99999})
	fmt.Println(err)
	// Output:
	// tokenizer: 50257 tokens (256 bytes, 50000 merges, 1 special), pre-split gpt2
	// [15496 995 27 91 437 1659 5239 91 29]
	// [15496 995 50256]
	// "Hello world<|endoftext|>"
	// 47249:"\xf0\x9f\x98" 222:"\x80" 0:"!"
	// tokenizer: decode: id 99999 at position 1: tokenizer: unknown token id (vocabulary size 50257)
}

func ExampleTokenizer_EncodeTrace() {
	tok, _ := tokenizer.Train("aaabdaaabac", 256+3, tokenizer.TrainOptions{})
	fmt.Print(tok.EncodeTrace("aaab aac"))
	// Output:
	// "aaab aac" → 2 chunks, 4 merges, 4 tokens
	// chunk 1 "aaab" bytes [97 97 97 98]
	//   merge (97 97) rank 0 → 256 "aa"  [256 97 98]
	//   merge (97 98) rank 1 → 257 "ab"  [256 257]
	//   merge (256 257) rank 2 → 258 "aaab"  [258]
	//   = [258]
	// chunk 2 " aac" bytes [32 97 97 99]
	//   merge (97 97) rank 0 → 256 "aa"  [32 256 99]
	//   = [32 256 99]
}

func ExampleLoad() {
	tok, _ := tokenizer.Train("hello hello world", 256+4+1, tokenizer.TrainOptions{Special: []string{tokenizer.EndOfText}})
	path := filepath.Join(os.TempDir(), "example.tok")
	defer os.Remove(path)
	if err := tok.Save(path); err != nil {
		panic(err)
	}
	back, err := tokenizer.Load(path)
	if err != nil {
		panic(err)
	}
	fmt.Println(back.VocabSize(), back.EndTokenID(), back.Encode("hello world"))
	// Output:
	// 261 260 [259 32 119 111 114 108 100]
}
