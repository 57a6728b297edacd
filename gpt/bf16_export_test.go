package gpt

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gptnotes/gptnotes/tokenizer"
)

// TestExportBF16Compare writes what tests/bf16_compare.py compares with PyTorch's bfloat16
// GPT-2, into the directory $GPTNOTES_BF16_EXPORT (skipped when it is unset):
//
//	NAME.model.safetensors  the fp32 weights (Save), which the script loads into torch
//	NAME.acts.safetensors   every activation of one forward of NAME.ids in fp32 and in bf16
//	                        (keys fp32.h.3.ln_1, bf16.h.3.ln_1, …, TransformerLens's order)
//	NAME.json               the ids, and for the shipped model our greedy continuations of
//	                        10 prompts in both precisions
//
// for NAME small (GPT-2 Small, random init, 64 random tokens) and shipped (the model in
// testdata/, 64 tokens of Go source). Run:
//
//	GPTNOTES_BF16_EXPORT=/tmp/bf16 go test ./gpt -run TestExportBF16Compare -count=1
//	/usr/bin/python3 tests/bf16_compare.py /tmp/bf16
func TestExportBF16Compare(t *testing.T) {
	dir := os.Getenv("GPTNOTES_BF16_EXPORT")
	if dir == "" {
		t.Skip("set GPTNOTES_BF16_EXPORT to a directory to export the bf16 comparison")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	small, err := New(Small)
	if err != nil {
		t.Fatal(err)
	}
	small.Init(1337, true)
	exportCompare(t, dir, "small", small, randomIDs(rand.New(rand.NewPCG(3, 3)), 64, Small.VocabSize), nil)

	shipped, _, err := Load("../testdata/gopher.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokenizer.Load("../testdata/gopher.tok")
	if err != nil {
		t.Fatal(err)
	}
	prompts := []string{
		"package main\n\nimport \"fmt\"\n\nfunc main() {\n",
		"// Copyright 2009 The Go Authors. All rights reserved.\n",
		"func (b *Buffer) Write(p []byte) (n int, err error) {\n",
		"for i := 0; i < len(s); i++ {\n",
		"if err != nil {\n\t\treturn nil, ",
		"type Reader interface {\n",
		"// String returns",
		"switch x := v.(type) {\n",
		"var ErrShortWrite = errors.New(",
		"func TestParse(t *testing.T) {\n",
	}
	var ids [][]int
	for _, p := range prompts {
		ids = append(ids, tok.Encode(p))
	}
	src := tok.Encode(prompts[0] + "\tfmt.Println(\"hello, world\")\n\tfor i := 0; i < 10; i++ {\n\t\tfmt.Println(i)\n\t}\n}\n")
	exportCompare(t, dir, "shipped", shipped, src, ids)
}

// exportCompare writes NAME.model, NAME.acts and NAME.json for m (fp32) and its bf16 twin.
func exportCompare(t *testing.T, dir, name string, m *Model, ids []int, prompts [][]int) {
	t.Helper()
	if err := Save(filepath.Join(dir, name+".model.safetensors"), m, nil); err != nil {
		t.Fatal(err)
	}
	var srcs []tensorSource
	for _, mm := range []*Model{m, m.WithPrecision(BF16)} {
		// With targets the forward keeps every layer's activations (m.acts).
		out, err := mm.Forward([][]int{ids}, [][]int{ids})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range namedActs(mm, out) {
			a.name = mm.Precision.String() + "." + a.name
			srcs = append(srcs, a)
		}
	}
	f, err := os.Create(filepath.Join(dir, name+".acts.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if err := writeSafetensors(f, srcs, DtypeF32, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	info := map[string]any{"ids": ids, "config": m.Config}
	if prompts != nil {
		const steps = 64
		greedy := map[string][][]int{}
		for _, mm := range []*Model{m, m.WithPrecision(BF16)} {
			for _, p := range prompts {
				g, err := NewGenerator(mm, p, Greedy, true)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := g.Steps(steps); err != nil {
					t.Fatal(err)
				}
				greedy[mm.Precision.String()] = append(greedy[mm.Precision.String()], g.Generated())
			}
		}
		info["prompts"], info["greedy"], info["steps"] = prompts, greedy, steps
	}
	b, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d activations of %d positions written to %s", name, len(srcs), len(ids), dir)
}

// namedActs lists the activations of m's last Forward with targets (one sequence of T),
// named as tests/bf16_compare.py names its own: embed, then per block ln_1, qkv, pattern,
// z, attn_out, resid_mid, ln_2, pre, post, mlp_out, resid_post, then ln_f and logits.
func namedActs(m *Model, out *Output) []tensorSource {
	a, cfg := m.acts, m.Config
	T, C, NH := a.T, cfg.Channels, cfg.Heads
	src := func(name string, x []float32, shape ...int) tensorSource {
		return tensorSource{name: name, shape: shape, read: func(dst []float32, off int) { copy(dst, x[off:]) }}
	}
	srcs := []tensorSource{src("embed", a.encoded, T, C)}
	for l := 0; l < cfg.Layers; l++ {
		la := a.layer(l, C, NH)
		p := fmt.Sprintf("h.%d.", l)
		srcs = append(srcs,
			src(p+"ln_1", la.ln1, T, C), src(p+"qkv", la.qkv, T, 3*C), src(p+"pattern", la.att, NH, T, T),
			src(p+"z", la.atty, T, C), src(p+"attn_out", la.attproj, T, C), src(p+"resid_mid", la.residual2, T, C),
			src(p+"ln_2", la.ln2, T, C), src(p+"pre", la.fch, T, 4*C), src(p+"post", la.fchGelu, T, 4*C),
			src(p+"mlp_out", la.fcproj, T, C), src(p+"resid_post", la.residual3, T, C))
	}
	return append(srcs, src("ln_f", a.lnf, T, C), src("logits", out.Logits, T, cfg.VocabSize))
}
