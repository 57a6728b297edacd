package tokenizer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSaveLoad(t *testing.T) {
	trained, err := Train(goSource(t, 100_000), 512, TrainOptions{Special: []string{EndOfText, "<|pad|>"}})
	if err != nil {
		t.Fatal(err)
	}
	for name, tok := range map[string]*Tokenizer{"gpt2": gpt2(t), "trained": trained} {
		path := filepath.Join(t.TempDir(), name+".tok")
		if err := tok.Save(path); err != nil {
			t.Fatal(err)
		}
		back, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if back.VocabSize() != tok.VocabSize() || back.EndTokenID() != tok.EndTokenID() || fmt.Sprint(back.SpecialTokens()) != fmt.Sprint(tok.SpecialTokens()) {
			t.Errorf("%s: loaded VocabSize %d EndTokenID %d specials %v, saved %d %d %v", name,
				back.VocabSize(), back.EndTokenID(), back.SpecialTokens(), tok.VocabSize(), tok.EndTokenID(), tok.SpecialTokens())
		}
		for _, text := range append(readAll(t, sample(goFiles(t), 500)), multilingual...) {
			if got, want := back.Encode(text), tok.Encode(text); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s: loaded tokenizer encodes differently", name)
			}
		}
	}
}

// TestLoadCorrupt damages a saved file in several ways; each must fail with
// the line number of the damage.
func TestLoadCorrupt(t *testing.T) {
	tok, err := Train("hello hello world world", 256+5, TrainOptions{Special: []string{EndOfText}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if _, err := tok.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	find := func(prefix string) int {
		for i, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return i
			}
		}
		t.Fatalf("no line %q", prefix)
		return 0
	}
	cases := []struct {
		name string
		line int // 0-based line to replace
		with string
		want string // in the error
	}{
		{"header", 0, "gptnotes-tokenizer 9", ":1: first line"},
		{"pattern", find("pattern"), "pattern cl100k", fmt.Sprintf(":%d: pattern", find("pattern")+1)},
		{"byte number", find("byte 7 "), "byte 7 x", fmt.Sprintf(":%d: byte", find("byte 7 ")+1)},
		{"byte order", find("byte 7 "), "byte 8 8", fmt.Sprintf(":%d: byte 8", find("byte 7 ")+1)},
		{"merge token", find("merge"), `merge 104 101 256 "xx"`, fmt.Sprintf(":%d: merge 104 101", find("merge")+1)},
		{"merge unknown id", find("merge"), `merge 999 101 256 "he"`, fmt.Sprintf(":%d: merge 999 101", find("merge")+1)},
		{"merge quote", find("merge"), `merge 104 101 256 he`, fmt.Sprintf(":%d: merge: token", find("merge")+1)},
		{"unknown", find("special"), "specia 261 x", fmt.Sprintf(":%d: unknown line", find("special")+1)},
		{"vocab", find("vocab"), "vocab 300", "vocab line says 300"},
	}
	for _, c := range cases {
		damaged := append([]string(nil), lines...)
		damaged[c.line] = c.with
		path := filepath.Join(t.TempDir(), "bad.tok")
		if err := os.WriteFile(path, []byte(strings.Join(damaged, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "tokenizer: load ") {
			t.Errorf("%s: err = %v, want one containing %q", c.name, err, c.want)
		}
	}
	// A truncated file: no line is wrong, but merges refer to missing ids or
	// bytes are missing.
	path := filepath.Join(t.TempDir(), "short.tok")
	os.WriteFile(path, []byte(strings.Join(lines[:find("byte 100 ")], "\n")), 0o644)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "100 byte lines") {
		t.Errorf("truncated: err = %v", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.tok")); err == nil {
		t.Error("missing file: no error")
	}
}
