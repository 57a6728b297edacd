package tokenizer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestByteRunes checks bytes_to_unicode against entries of GPT-2's
// vocab.json: "Ġ" is the space (220), "Ċ" the newline (198), "ĉ" the tab (197).
func TestByteRunes(t *testing.T) {
	for b, want := range map[byte]rune{' ': 'Ġ', '\n': 'Ċ', '\t': 'ĉ', 0: 'Ā', '!': '!', 0xad: 'Ń', 0xff: 'ÿ', 0x7f: 'ġ'} {
		if byteRunes[b] != want {
			t.Errorf("byteRunes[0x%02x] = %q, want %q", b, byteRunes[b], want)
		}
	}
}

// writeHF writes tok as a Hugging Face vocab.json + merges.txt.
func writeHF(t *testing.T, tok *Tokenizer, dir string) {
	vocab := make(map[string]int)
	for id := range tok.VocabSize() {
		if tok.IsSpecial(id) {
			vocab[string(tok.Token(id))] = id
		} else {
			vocab[hfText(tok.Token(id))] = id
		}
	}
	data, err := json.Marshal(vocab)
	if err != nil {
		t.Fatal(err)
	}
	var merges strings.Builder
	merges.WriteString("#version: 0.2\n")
	for _, m := range tok.Merges() {
		fmt.Fprintf(&merges, "%s %s\n", hfText(tok.Token(m.Left)), hfText(tok.Token(m.Right)))
	}
	if err := os.WriteFile(filepath.Join(dir, "vocab.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "merges.txt"), []byte(merges.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFromHF(t *testing.T) {
	g := gpt2(t)
	dir := t.TempDir()
	writeHF(t, g, dir)
	// Spot-check the files against GPT-2's published ones.
	data, _ := os.ReadFile(filepath.Join(dir, "merges.txt"))
	if first := strings.SplitN(string(data), "\n", 3)[1]; first != "Ġ t" {
		t.Errorf("first merge %q, want \"Ġ t\" as in GPT-2's merges.txt", first)
	}
	hf, err := FromHF(dir)
	if err != nil {
		t.Fatal(err)
	}
	if hf.VocabSize() != 50257 || hf.EndTokenID() != 50256 {
		t.Errorf("VocabSize %d EndTokenID %d", hf.VocabSize(), hf.EndTokenID())
	}
	for _, text := range append(readAll(t, sample(goFiles(t), 500)), multilingual...) {
		if got, want := hf.Encode(text), g.Encode(text); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("FromHF encodes %.30q… differently from GPT2", text)
		}
	}
	os.WriteFile(filepath.Join(dir, "merges.txt"), []byte("#version: 0.2\nĠ t\nnot-a-pair\n"), 0o644)
	if _, err := FromHF(dir); err == nil || !strings.Contains(err.Error(), "merges.txt:3") {
		t.Errorf("bad merges.txt: err = %v, want one naming merges.txt:3", err)
	}
	if _, err := FromHF(t.TempDir()); err == nil {
		t.Error("empty directory: no error")
	}
}
