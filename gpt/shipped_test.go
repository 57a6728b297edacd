package gpt_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// The model shipped in testdata/ (docs/model-card.md has the command that trained it).
const (
	shippedModel = "../testdata/gopher.safetensors"
	shippedTok   = "../testdata/gopher.tok"
)

func loadShipped(t *testing.T) (*gpt.Model, *tokenizer.Tokenizer, map[string]string) {
	t.Helper()
	start := time.Now()
	m, meta, err := gpt.Load(shippedModel)
	if err != nil {
		t.Fatal(err)
	}
	if meta["tokenizer"] != filepath.Base(shippedTok) {
		t.Errorf("the model names its tokenizer %q, want %q", meta["tokenizer"], filepath.Base(shippedTok))
	}
	tok, err := tokenizer.Load(shippedTok)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %v and a %d-token tokenizer in %v; metadata %v", m.Config, tok.VocabSize(), time.Since(start), meta)
	if m.Config != gpt.Gopher || tok.VocabSize() != m.Config.VocabSize {
		t.Errorf("shipped model is %v with a %d-token tokenizer, want gpt.Gopher (%v)", m.Config, tok.VocabSize(), gpt.Gopher)
	}
	return m, tok, meta
}

// TestShippedModelFitsGo measures the loss on one window of Go source the model was not
// trained on (a validation file of GOROOT/src): far below ln(4096) ≈ 8.3, the loss of an
// untrained model (the shipped model gets 3.5 on it).
func TestShippedModelFitsGo(t *testing.T) {
	m, tok, _ := loadShipped(t)
	c, err := gpt.OpenCorpus(gpt.GoSourceDir(), gpt.CorpusOptions{})
	if err != nil {
		t.Skip("no Go source here:", err)
	}
	var ids []int
	var file string
	for _, f := range c.Files {
		if f.Val && f.Size > 4000 {
			data, err := os.ReadFile(filepath.Join(c.Dir, f.Path))
			if err != nil {
				t.Fatal(err)
			}
			ids, file = tok.Encode(string(data)), f.Path
			break
		}
	}
	T := m.Config.BlockSize
	if len(ids) < T+1 {
		t.Fatalf("validation file %s has %d tokens", file, len(ids))
	}
	out, err := m.Forward([][]int{ids[:T]}, [][]int{ids[1 : T+1]})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loss on the first %d tokens of held-out %s: %.3f", T, file, out.Loss)
	if out.Loss > 4.2 {
		t.Errorf("loss on held-out Go source %.3f, want < 4.2", out.Loss)
	}
}

// TestShippedModelWritesGo samples from "func main() {" at temperature 0.8 and checks that
// the text looks like Go: several of Go's keywords and punctuation appear.
func TestShippedModelWritesGo(t *testing.T) {
	m, tok, _ := loadShipped(t)
	g, err := gpt.Generate(context.Background(), m, m.Config.BlockSize, tok, "func main() {", 80, gpt.Policy{Temperature: 0.8, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v", g)
	seen := 0
	for _, w := range []string{"\n\t", "(", ")", ":=", "if ", "return", "err", "}", ".", "\""} {
		if strings.Contains(g.Text[len("func main() {"):], w) {
			seen++
		}
	}
	if seen < 6 {
		t.Errorf("the sample has %d of 10 Go markers:\n%s", seen, g.Text)
	}
}
