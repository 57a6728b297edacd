package gpt_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
)

// generate runs a greedy generator of n tokens over the shipped model with hooks.
func generate(t *testing.T, m *gpt.Model, prompt []int, cached bool, n int, hooks ...gpt.Hook) ([]int, [][]float32) {
	t.Helper()
	g, err := gpt.NewGenerator(m, prompt, gpt.Greedy, cached)
	if err != nil {
		t.Fatal(err)
	}
	g.Hooks = hooks
	var logits [][]float32
	for i := 0; i < n; i++ {
		s, err := g.Step()
		if err != nil {
			t.Fatal(err)
		}
		logits = append(logits, slices.Clone(s.Logits)) // the Generator reuses its buffer
	}
	return g.Generated(), logits
}

// Hooks in generation, on the shipped model: hooks that only read leave the tokens as
// they are without hooks; zero-ablating the head that matters most on the prompt (the
// largest change of HeadAblation, tested in TestHeadAblationShipped) changes the logits,
// and the cached and uncached loops agree on the ablated tokens and logits.
func TestGeneratorHooks(t *testing.T) {
	m, tok, _ := loadShipped(t)
	prompt := tok.Encode("func main() {\n\tif err != nil {\n\t\t")
	const n = 12
	NH, C := m.Config.Heads, m.Config.Channels
	HS := C / NH
	read := gpt.Hook{Name: "blocks.*.attn.hook_pattern", Fn: func(a *gpt.Activation) {}}
	lm, err := m.HeadAblation(prompt, gpt.ZeroAblation, -1)
	if err != nil {
		t.Fatal(err)
	}
	layer, head, _ := lm.Max()
	which := fmt.Sprintf("layer %d head %d", layer, head)
	ablate := gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_z", layer), Fn: func(a *gpt.Activation) {
		for pos := 0; pos < a.Shape[1]; pos++ {
			clear(a.Data[pos*C+head*HS : pos*C+(head+1)*HS])
		}
	}}
	for _, cached := range []bool{false, true} {
		plain, _ := generate(t, m, prompt, cached, n)
		spied, _ := generate(t, m, prompt, cached, n, read)
		t.Logf("cached %v: %q", cached, tok.Decode(plain))
		if !slices.Equal(plain, spied) {
			t.Errorf("cached %v: a hook that only reads changed the tokens: %v, without hooks %v", cached, spied, plain)
		}
	}
	_, lp := generate(t, m, prompt, true, n)
	uncached, lu := generate(t, m, prompt, false, n, ablate)
	cachedIDs, lc := generate(t, m, prompt, true, n, ablate)
	t.Logf("%s ablated: %q", which, tok.Decode(cachedIDs))
	if slices.Equal(lp[0], lc[0]) {
		t.Errorf("ablating %s left the first step's logits as they were", which)
	}
	if !slices.Equal(uncached, cachedIDs) {
		t.Errorf("ablated: cached tokens %v, uncached %v", cachedIDs, uncached)
	}
	for i := range lu {
		var d, top float64
		for v := range lu[i] {
			d = math.Max(d, math.Abs(float64(lu[i][v]-lc[i][v])))
			top = math.Max(top, math.Abs(float64(lu[i][v])))
		}
		if d > 1e-4*top {
			t.Errorf("step %d: ablated cached and uncached logits differ by %.3g (largest %.3g)", i+1, d, top)
		}
	}
}

// What a hook sees in a cached step: the prefill's pattern is (1, NH, P, P), each later
// step's is the new query's row over every key, (1, NH, 1, P+i); and a change to hook_k
// is what the cache keeps.
func TestGeneratorHooksCachedStep(t *testing.T) {
	m, tok, _ := loadShipped(t)
	prompt := tok.Encode("package main\n")
	P, NH, C := len(prompt), m.Config.Heads, m.Config.Channels
	var shapes []string
	look := gpt.Hook{Name: "blocks.1.attn.hook_pattern", Fn: func(a *gpt.Activation) { shapes = append(shapes, fmt.Sprint(a.Shape)) }}
	setK := gpt.Hook{Name: "blocks.2.attn.hook_k", Fn: func(a *gpt.Activation) {
		for i := range a.Data {
			a.Data[i] = 0.25
		}
	}}
	g, err := gpt.NewGenerator(m, prompt, gpt.Greedy, true)
	if err != nil {
		t.Fatal(err)
	}
	g.Hooks = []gpt.Hook{look, setK}
	if _, err := g.Steps(3); err != nil {
		t.Fatal(err)
	}
	want := []string{fmt.Sprint([]int{1, NH, P, P}), fmt.Sprint([]int{1, NH, 1, P + 1}), fmt.Sprint([]int{1, NH, 1, P + 2})}
	if !slices.Equal(shapes, want) {
		t.Errorf("the pattern hook saw shapes %v, want %v", shapes, want)
	}
	k, _ := g.Cache().Layer(2)
	if len(k) != (P+2)*C {
		t.Fatalf("layer 2 caches %d keys, want %d", len(k)/C, P+2)
	}
	for i, v := range k {
		if v != 0.25 {
			t.Fatalf("cached key %d of position %d is %g, the hook set 0.25", i%C, i/C, v)
		}
	}
	bad, _ := gpt.NewGenerator(m, prompt, gpt.Greedy, true)
	past := fmt.Sprintf("blocks.%d.attn.hook_z", m.Config.Layers)
	bad.Hooks = []gpt.Hook{{Name: past, Fn: func(*gpt.Activation) {}}}
	if _, err := bad.Step(); err == nil {
		t.Errorf("a hook on %s of a %d-block model: no error", past, m.Config.Layers)
	} else {
		t.Log(err)
	}
}
