package tokenizer

import (
	"bytes"
	"sync"
	"testing"
	"unicode/utf8"
)

// seeds start every fuzz target: valid and invalid UTF-8, whitespace,
// specials, long runs.
var seeds = []string{
	"", "Hello world's  end\n\n  x", "func main() {\n\tfmt.Println(\"hi\")\n}\n", "\xff\xfe\x80", "caf\xc3",
	"日本語 😀👍🏽 e\u0301", "<|endoftext|>", "   \t\n\r\n  \u3000x", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
}

var (
	fuzzTrainOnce sync.Once
	fuzzTrained   *Tokenizer
)

// trainedForFuzz is a small tokenizer trained on Go source, shared by the
// fuzz targets.
func trainedForFuzz(t *testing.T) *Tokenizer {
	fuzzTrainOnce.Do(func() {
		tok, err := Train(goSource(t, 200_000), 1024, TrainOptions{Special: []string{EndOfText}})
		if err != nil {
			t.Fatal(err)
		}
		fuzzTrained = tok
	})
	return fuzzTrained
}

func checkRoundTrip(t *testing.T, tok *Tokenizer, b []byte) {
	ids := tok.Encode(string(b))
	back, err := tok.DecodeBytes(ids)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, b) {
		t.Fatalf("DecodeBytes(Encode(%q)) = %q", b, back)
	}
	if s := tok.Decode(ids); s != string(b) {
		t.Fatalf("Decode(Encode(%q)) = %q", b, s)
	}
	if got := tok.EncodeTrace(string(b)).IDs(); len(got) != len(ids) {
		t.Fatalf("%q: EncodeTrace gives %d ids, Encode %d", b, len(got), len(ids))
	}
}

// FuzzGPT2 checks decode(encode(b)) == b for any bytes and, for valid UTF-8,
// that the ids equal tiktoken-go's. tiktoken-go v0.10.0 silently drops some
// characters (DEL, 0x7f: its regexp2/v2 pattern never matches it, while
// regexp2 v1 and GPT-2's vocabulary have it); inputs it cannot round-trip
// are not compared.
func FuzzGPT2(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	g := gpt2(f)
	c := r50k(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		checkRoundTrip(t, g, b)
		if utf8.Valid(b) {
			want, _, err := c.Encode(string(b))
			if err != nil {
				t.Fatal(err)
			}
			if text, _ := c.Decode(want); text != string(b) {
				t.Skipf("tiktoken-go loses part of %q", b)
			}
			if d := diffIDs(g.Encode(string(b)), want); d != "" {
				t.Fatalf("%q: %s", b, d)
			}
		}
	})
}

// FuzzTrained checks decode(encode(b)) == b for a tokenizer trained on Go
// source.
func FuzzTrained(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkRoundTrip(t, trainedForFuzz(t), b)
	})
}
