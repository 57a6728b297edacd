package tokenizer

import (
	"fmt"
	"strings"
	"testing"
)

// TestTraceMatchesEncode checks the fast encoder against the plain merge
// loop of EncodeTrace, on Go source and on long chunks (the heap path).
func TestTraceMatchesEncode(t *testing.T) {
	g := gpt2(t)
	texts := readAll(t, sample(goFiles(t), 200))
	texts = append(texts, multilingual...)
	texts = append(texts, strings.Repeat("ab", 500), strings.Repeat("x", 300)+strings.Repeat("日本", 100), strings.Repeat("\xff\x80a", 100))
	trained, err := Train(goSource(t, 200_000), 600, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []*Tokenizer{g, trained} {
		for i, text := range texts {
			got, want := tok.Encode(text), tok.EncodeTrace(text).IDs()
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("text %d (%.30q…): Encode gives %d ids, EncodeTrace %d", i, text, len(got), len(want))
			}
		}
	}
}

func TestTraceSteps(t *testing.T) {
	tok, err := Train("aaabdaaabac", 259, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tr := tok.EncodeTrace("aaabdaaabac")
	if len(tr.Chunks) != 1 || tr.Merges() != 6 {
		t.Fatalf("%d chunks, %d merges; want 1 chunk, 6 merges:\n%s", len(tr.Chunks), tr.Merges(), tr)
	}
	// aa, aa, ab, ab, then (aa ab) twice: one merge at a time, lowest rank
	// first, leftmost first; At indexes the parts before the step.
	var got []string
	for _, s := range tr.Chunks[0].Steps {
		got = append(got, fmt.Sprintf("%d@%d", s.ID, s.At))
	}
	if want := "[256@0 256@4 257@1 257@4 258@0 258@2]"; fmt.Sprint(got) != want {
		t.Errorf("steps %v, want %s", got, want)
	}
	text, h := tr.String(), tr.HTML()
	for _, want := range []string{`"aaabdaaabac" → 1 chunks`, `merge (97 97) rank 0 → 256 "aa"`, "= [258 100 258 97 99]"} {
		if !strings.Contains(text, want) {
			t.Errorf("String() lacks %q:\n%s", want, text)
		}
	}
	for _, want := range []string{"<table", `title="id 258"`, "<sub", "hsl("} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML() lacks %q", want)
		}
	}
}

func TestTokensDisplay(t *testing.T) {
	g := gpt2(t)
	ts := g.Tokenize("Hello world\n\t<b>😀")
	if s := ts.String(); !strings.HasPrefix(s, `15496:"Hello" 995:" world" 198:"\n" 197:"\t"`) || !strings.Contains(s, `\x`) {
		t.Errorf("String() = %s", s)
	}
	h := ts.HTML()
	for _, want := range []string{`title="id 15496"`, "␣world", "↵", "&lt;", `\xf0`} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML() lacks %q: %s", want, h)
		}
	}
}
