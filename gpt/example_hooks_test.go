package gpt_test

import (
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// shipped opens the model and tokenizer in testdata/ for the examples.
func shipped() (*gpt.Model, *tokenizer.Tokenizer) {
	m, tok, err := gpt.Open(shippedModel)
	if err != nil {
		log.Fatal(err)
	}
	return m, tok
}

// RunWithCache keeps the activations a notebook needs; every name has its shape.
func ExampleModel_RunWithCache() {
	m, tok := shipped()
	ids := tok.Encode("\tif err != nil {")
	out, cache, err := m.RunWithCache(ids)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("logits", out.B, out.T, out.V)
	fmt.Println(len(cache.Names()), "activations kept, the first", cache.Names()[:3])
	pattern, _ := cache.Pattern(0)
	row := pattern.Data[2*6 : 3*6] // head 0, query 2: keys 0 … 5
	fmt.Printf("%s %v\nhead 0, query 2 looks at keys 0 1 2: %.3f\n", pattern.Name, pattern.Shape, row)
	_, err = cache.Get("blocks.0.attn.hook_q")
	fmt.Println(err)
	_, all, _ := m.RunWithCache(ids, "blocks.0.attn.*")
	fmt.Println(all.Names())
	// Output:
	// logits 1 6 4096
	// 84 activations kept, the first [hook_embed hook_pos_embed blocks.0.hook_resid_pre]
	// blocks.0.attn.hook_pattern [1 8 6 6]
	// head 0, query 2 looks at keys 0 1 2: [0.340 0.357 0.303 0.000 0.000 0.000]
	// gpt: cache: blocks.0.attn.hook_q was not kept; ask RunWithCache for it by name or pattern (it keeps DefaultCacheNames unless told)
	// [blocks.0.attn.hook_q blocks.0.attn.hook_k blocks.0.attn.hook_v blocks.0.attn.hook_attn_scores blocks.0.attn.hook_pattern blocks.0.attn.hook_z blocks.0.attn.hook_result]
}

// A hook sees an activation while the forward runs; what it changes, the rest of the
// forward uses. Here every head of block 0 is silenced.
func ExampleModel_RunWithHooks() {
	m, tok := shipped()
	ids := tok.Encode("\tif err != nil {\n\t\treturn")
	silence := gpt.Hook{Name: "blocks.0.attn.hook_z", Fn: func(a *gpt.Activation) {
		fmt.Println("the hook sees", a.Name, a.Shape)
		clear(a.Data)
	}}
	plain, _ := m.RunWithHooks(ids)
	out, err := m.RunWithHooks(ids, silence)
	if err != nil {
		log.Fatal(err)
	}
	last := len(ids) - 1
	top := func(o *gpt.Output) string {
		cs, _ := gpt.Ranked(o.Row(0, last), 1, 1)
		return fmt.Sprintf("%q %.2f", tok.Decode([]int{cs[0].ID}), cs[0].Prob)
	}
	fmt.Println("next token:", top(plain), "→ with block 0 silenced:", top(out))
	_, err = m.RunWithHooks(ids, gpt.Hook{Name: "blocks.99.attn.hook_z", Fn: func(*gpt.Activation) {}})
	fmt.Println(err)
	// Output:
	// the hook sees blocks.0.attn.hook_z [1 9 8 32]
	// next token: " nil" 0.36 → with block 0 silenced: "\n" 0.15
	// gpt: run with hooks: hook "blocks.99.attn.hook_z": gpt: no hook point "blocks.99.attn.hook_z": blocks are 0 … 7
}

// The logit lens reads each stage of the residual stream as a prediction.
func ExampleActivationCache_LogitLens() {
	m, tok := shipped()
	_, cache, err := m.RunWithCache(tok.Encode("func main() {\n\tfmt.Println"))
	if err != nil {
		log.Fatal(err)
	}
	lens, err := cache.LogitLens(tok, 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(lens)
	// Output:
	// input     "func" " main" "()" " {" "\n" "\t" "fmt" "." "Println"
	// embed     "func" "vvvv" "()" " {" "\n" "\t" "fmt" "." "vvvvvvvv"
	// block 0   "(" "(" " {" "\n" "\t" "//" "." "F" "("
	// block 1   " (" "." " {" "}" "\t" "//" "." "F" "("
	// block 2   "func" "." " {" " return" "\t" "//" "." "F" "("
	// block 3   " (" "()" " {" " return" "\t" "//" "." "F" "("
	// block 4   " (" "()" " {" " return" "\t" "if" "." "F" "("
	// block 5   " (" "()" " {" " return" "\t" "if" "." "F" "("
	// block 6   " (" "()" " {" "\n" "\t" "if" "." "F" "("
	// block 7   " (" "()" " {" "\n" "\t" "if" "." "Fprintf" "(\""
}

// Direct logit attribution: each head's share of the logit of the predicted token.
func ExampleActivationCache_DirectLogitAttribution() {
	m, tok := shipped()
	ids := tok.Encode("\tif err != nil {\n\t\treturn nil,")
	out, cache, err := m.RunWithCache(ids)
	if err != nil {
		log.Fatal(err)
	}
	cs, _ := gpt.Ranked(out.Row(0, len(ids)-1), 1, 1)
	a, err := cache.DirectLogitAttribution(-1, cs[0].ID)
	if err != nil {
		log.Fatal(err)
	}
	l, h, v := a.Heads.Max()
	fmt.Printf("predicted %q, logit %.2f; the terms add up to it: %v\n", tok.Decode([]int{cs[0].ID}), a.Logit, math.Abs(a.Sum()-a.Logit) < 1e-3)
	fmt.Printf("the head that writes most: layer %d head %d, %+.2f\n", l, h, v)
	// Output:
	// predicted " err", logit 10.51; the terms add up to it: true
	// the head that writes most: layer 6 head 4, +0.44
}

// Zero-ablating each head in turn: which heads the loss on a line of Go depends on.
func ExampleModel_HeadAblation() {
	m, tok := shipped()
	lm, err := m.HeadAblation(tok.Encode("\tif err != nil {\n\t\treturn nil, err\n\t}\n"), gpt.ZeroAblation, -1)
	if err != nil {
		log.Fatal(err)
	}
	l, h, v := lm.Max()
	fmt.Println(lm.Title)
	fmt.Printf("the head that matters most: layer %d head %d, loss %+.3f\n", l, h, v)
	// Output:
	// zero-ablating each head: change in the loss (clean 0.5587)
	// the head that matters most: layer 0 head 3, loss +0.116
}

// Activation patching: which positions and layers carry the loop variable's name.
func ExampleModel_ActivationPatching() {
	m, tok := shipped()
	lm, err := m.ActivationPatching(gpt.Patching{
		Clean: tok.Encode("\tfor i := 0; i < n;"), Corrupted: tok.Encode("\tfor j := 0; j < n;"),
		Right: tok.Encode(" i")[0], Wrong: tok.Encode(" j")[0], Decoder: tok,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(lm.Labels)
	for l, row := range lm.Values {
		fmt.Printf("layer %d: position 2 %.2f, position 6 %.2f, last %.2f\n", l, row[2], row[6], row[len(row)-1])
	}
	// Output:
	// ["\t" "for" " i" " :=" " 0" ";" " i" " <" " n" ";"]
	// layer 0: position 2 0.48, position 6 0.35, last 0.00
	// layer 1: position 2 0.22, position 6 0.13, last 0.45
	// layer 2: position 2 0.24, position 6 0.13, last 0.42
	// layer 3: position 2 0.25, position 6 0.12, last 0.42
	// layer 4: position 2 0.25, position 6 0.12, last 0.40
	// layer 5: position 2 0.25, position 6 0.11, last 0.41
	// layer 6: position 2 0.20, position 6 0.08, last 0.50
	// layer 7: position 2 0.05, position 6 0.04, last 0.77
}

// A generator with a hook: the same prompt, with head 3 of block 0 ablated.
func ExampleGenerator_hooks() {
	m, tok := shipped()
	C, HS := m.Config.Channels, m.Config.Channels/m.Config.Heads
	ablate := gpt.Hook{Name: "blocks.0.attn.hook_z", Fn: func(a *gpt.Activation) {
		for pos := 0; pos < a.Shape[1]; pos++ { // one position per cached step
			clear(a.Data[pos*C+3*HS : pos*C+4*HS])
		}
	}}
	for _, hooks := range [][]gpt.Hook{nil, {ablate}} {
		g, err := gpt.NewGenerator(m, tok.Encode("func main() {\n\tif err != nil {\n\t\t"), gpt.Greedy, true)
		if err != nil {
			log.Fatal(err)
		}
		g.Hooks = hooks
		if _, err := g.Steps(12); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d hooks: %q\n", len(hooks), tok.Decode(g.Generated()))
	}
	// Output:
	// 0 hooks: "\tt.Fatal(err)\n\t\t}\n\t"
	// 1 hooks: "\treturn nil\n\t\t}\n\t\tif err := os"
}

// The residual stream at every depth, one (L+1, B, T, C) activation: its norm jumps when
// block 0 writes to it, then stays near that size; the last block shrinks it a little.
func ExampleActivationCache_ResidualStream() {
	m, tok := shipped()
	_, cache, err := m.RunWithCache(tok.Encode("package main"))
	if err != nil {
		log.Fatal(err)
	}
	rs, err := cache.ResidualStream()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rs.Name, rs.Shape)
	T, C := rs.Shape[2], rs.Shape[3]
	for s := 0; s < rs.Shape[0]; s++ {
		stage := gpt.Activation{Shape: []int{T, C}, Data: rs.Data[s*T*C : (s+1)*T*C]}
		_, _, norm := stage.Stats()
		fmt.Printf("stage %d: norm %.1f\n", s, norm)
	}
	// Output:
	// resid_stream [9 1 2 256]
	// stage 0: norm 2.4
	// stage 1: norm 88.9
	// stage 2: norm 86.4
	// stage 3: norm 80.5
	// stage 4: norm 80.7
	// stage 5: norm 81.8
	// stage 6: norm 79.9
	// stage 7: norm 77.0
	// stage 8: norm 71.1
}

// A cache saved as safetensors: one tensor per name, in forward order, readable by
// safetensors.torch.load_file beside TransformerLens's cache.
func ExampleActivationCache_Save() {
	m, tok := shipped()
	_, cache, err := m.RunWithCache(tok.Encode("package main"), "blocks.0.attn.hook_pattern", "ln_final.hook_scale")
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "cache")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "cache.safetensors")
	if err := cache.Save(path); err != nil {
		log.Fatal(err)
	}
	f, err := gpt.OpenSafetensors(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	for _, t := range f.Tensors {
		fmt.Println(t.Name, t.Dtype, t.Shape)
	}
	// Output:
	// blocks.0.attn.hook_pattern F32 [1 8 2 2]
	// ln_final.hook_scale F32 [1 2 1]
}
