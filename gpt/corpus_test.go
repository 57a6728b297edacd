package gpt

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// byteTokenizer is a complete tokenizer of its own: one token per byte, 256 = end of file.
type byteTokenizer struct{}

func (byteTokenizer) Encode(s string) []int {
	ids := make([]int, len(s))
	for i := range len(s) {
		ids[i] = int(s[i])
	}
	return ids
}
func (byteTokenizer) VocabSize() int  { return 257 }
func (byteTokenizer) EndTokenID() int { return 256 }
func (byteTokenizer) Token(id int) []byte {
	if id == 256 {
		return []byte("<|endoftext|>")
	}
	return []byte{byte(id)}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCorpusListsSplitsAndCaches(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"testdata/skip.go": "package skip", "notes.txt": "not go", "empty.go": ""}
	for i := range 40 {
		files[filepath.ToSlash(filepath.Join("pkg", string(rune('a'+i%26)), strings.Repeat("x", i/26+1)+".go"))] = strings.Repeat("package p\n", i+1)
	}
	writeFiles(t, dir, files)
	opts := CorpusOptions{CacheDir: t.TempDir(), ValPercent: 10}
	c, err := OpenCorpus(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Files) != 40 {
		t.Fatalf("%d files, want the 40 non-empty .go files outside testdata", len(c.Files))
	}
	var nVal, wantTrain, wantVal int
	for _, f := range c.Files {
		if strings.HasPrefix(f.Path, "testdata") || strings.HasSuffix(f.Path, ".txt") {
			t.Errorf("listed %s", f.Path)
		}
		if f.Val {
			nVal++
			wantVal += int(f.Size) + 1
		} else {
			wantTrain += int(f.Size) + 1
		}
	}
	if nVal == 0 || nVal == len(c.Files) {
		t.Fatalf("%d of %d files validate, want some but not all", nVal, len(c.Files))
	}
	if err := c.Tokenize(byteTokenizer{}); err != nil {
		t.Fatal(err)
	}
	if c.Cached || len(c.Train) != wantTrain || len(c.Val) != wantVal {
		t.Fatalf("cached %v, %d train %d val tokens, want fresh, %d and %d", c.Cached, len(c.Train), len(c.Val), wantTrain, wantVal)
	}
	if c.Train[len(c.Train)-1] != 256 || string(rune(c.Train[0])) != "p" {
		t.Errorf("train tokens start %d, end %d; want 'p' … 256", c.Train[0], c.Train[len(c.Train)-1])
	}
	again, err := OpenTokenized(dir, byteTokenizer{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Cached || !slices.Equal(again.Train, c.Train) || !slices.Equal(again.Val, c.Val) || again.Key != c.Key {
		t.Errorf("second open: cached %v, same tokens %v", again.Cached, slices.Equal(again.Train, c.Train))
	}
	writeFiles(t, dir, map[string]string{"pkg/a/x.go": "package changed, longer\n"})
	changed, err := OpenTokenized(dir, byteTokenizer{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if changed.Cached || changed.Key == c.Key {
		t.Errorf("after a file changed size: cached %v, key unchanged %v", changed.Cached, changed.Key == c.Key)
	}
}

func TestCorpusEmptyIsAnError(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "text", "empty.go": ""})
	_, err := OpenCorpus(dir, CorpusOptions{})
	if !errors.Is(err, ErrEmptyCorpus) {
		t.Fatalf("err = %v, want ErrEmptyCorpus", err)
	}
	t.Log(err)
}

func TestCorpusOfOneFileSplitsByTokens(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"only.txt": strings.Repeat("abcdefghij", 10)})
	c, err := OpenTokenized(dir, byteTokenizer{}, CorpusOptions{Exts: []string{".txt"}, CacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Train) != 91 || len(c.Val) != 10 {
		t.Errorf("%d train, %d val tokens; want 91 and 10", len(c.Train), len(c.Val))
	}
}

func TestLoaderIsSeededAndResumable(t *testing.T) {
	tokens := make([]int32, 1000)
	for i := range tokens {
		tokens[i] = int32(i)
	}
	a, err := NewLoader(tokens, 4, 16, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewLoader(tokens, 4, 16, 7)
	for range 3 {
		xa, _ := a.Next()
		xb, _ := b.Next()
		if !slices.EqualFunc(xa, xb, slices.Equal) {
			t.Fatal("same seed, different batches")
		}
	}
	state, err := a.State()
	if err != nil {
		t.Fatal(err)
	}
	x1, y1 := a.Next()
	for r := range x1 {
		for t2 := range x1[r] {
			if y1[r][t2] != x1[r][t2]+1 {
				t.Fatalf("target is not the next token: x %d, y %d", x1[r][t2], y1[r][t2])
			}
		}
	}
	c, _ := NewLoader(tokens, 4, 16, 99)
	if err := c.Restore(state); err != nil {
		t.Fatal(err)
	}
	x2, _ := c.Next()
	if !slices.EqualFunc(x1, x2, slices.Equal) || c.Batches != 4 {
		t.Errorf("restored loader drew a different batch (batches %d, want 4)", c.Batches)
	}
	if _, err := NewLoader(tokens[:16], 4, 16, 1); err == nil {
		t.Error("16 tokens with block size 16: no error")
	} else {
		t.Log(err)
	}
}

func TestWindowsSpanTheSplit(t *testing.T) {
	tokens := make([]int32, 1000)
	for i := range tokens {
		tokens[i] = int32(i)
	}
	x, y, err := Windows(tokens[:50], 2, 8, 0)
	if err != nil {
		t.Fatal(err)
	}
	// 49/8 = 6 windows → 3 batches of 2, consecutive
	if len(x) != 3 || len(x[2]) != 2 || x[1][0][0] != 16 || y[2][1][7] != 48 {
		t.Errorf("all windows: %d batches, x[1][0][0]=%d, y[2][1][7]=%d; want 3, 16, 48", len(x), x[1][0][0], y[2][1][7])
	}
	// 2 batches of 2 out of 1000 tokens: starts spread from 0 to 991, not overlapping
	x, y, _ = Windows(tokens, 2, 8, 2)
	starts := []int{x[0][0][0], x[0][1][0], x[1][0][0], x[1][1][0]}
	if len(x) != 2 || starts[0] != 0 || starts[3] != 991 || y[1][1][7] != 999 {
		t.Errorf("spread windows start at %v (last target %d), want 0 … 991 (999)", starts, y[1][1][7])
	}
	for i := 1; i < len(starts); i++ {
		if starts[i] < starts[i-1]+8 {
			t.Errorf("windows overlap: %v", starts)
		}
	}
	if _, _, err := Windows(tokens[:8], 2, 8, 0); err == nil {
		t.Error("8 tokens, block 8: no error")
	}
}

// A loader with Repeated rows draws that many random sequences repeated, last in the batch,
// within the vocabulary, their period and the position where the repeats start varying.
func TestLoaderRepeatedRows(t *testing.T) {
	tokens := make([]int32, 1000)
	for i := range tokens {
		tokens[i] = int32(i % 50)
	}
	l, err := NewLoader(tokens, 6, 63, 3)
	if err != nil {
		t.Fatal(err)
	}
	l.Repeated, l.Vocab = 4, 7000
	periods, starts := map[int]bool{}, map[int]bool{}
	for range 5 {
		x, y := l.Next()
		for b := range x {
			seq := append(append([]int(nil), x[b]...), y[b][len(y[b])-1]) // the 64 tokens
			p, start := period(seq)
			big := slices.ContainsFunc(x[b], func(id int) bool { return id >= 50 })
			if b < 2 {
				if big {
					t.Errorf("row %d, from the corpus, has ids past its 50", b)
				}
				continue
			}
			if p < 64/8 || p > 64/2 || start+2*p > 64 || !big || slices.Max(seq) >= 7000 {
				t.Errorf("row %d: period %d from %d (want 8 … 32, two copies at least), ids %v", b, p, start, seq)
			}
			periods[p], starts[start] = true, true
		}
	}
	if len(periods) < 3 || len(starts) < 3 {
		t.Errorf("periods %v, starts %v over 20 repeated rows: both should vary", periods, starts)
	}
}

// period finds the repetition at the end of seq: the smallest p > 0 for which a tail of at
// least 2p tokens has seq[i] == seq[i-p], and where that tail starts (the prefix before it
// is random: a prefix token that happens to equal its partner p on counts as the tail's).
func period(seq []int) (p, start int) {
	for p := 1; 2*p <= len(seq); p++ {
		start := len(seq)
		for start > p && seq[start-1] == seq[start-1-p] {
			start--
		}
		if start -= p; len(seq)-start >= 2*p {
			return p, start
		}
	}
	return len(seq), 0
}
