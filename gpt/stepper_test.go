package gpt

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// stepperModels are the models the Stepper is tested on: a random Tiny with non-zero
// biases, and the shipped model with the prompt of a Go file.
func stepperModels(t *testing.T) map[string]struct {
	m   *Model
	ids []int
} {
	t.Helper()
	tiny := newTestModel(t, Tiny, 5)
	shipped, tok, err := Open("../testdata/gopher.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	return map[string]struct {
		m   *Model
		ids []int
	}{
		"tiny":    {tiny, randomIDs(rand.New(rand.NewPCG(5, 6)), 23, Tiny.VocabSize)},
		"shipped": {shipped, tok.Encode("package main\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n")},
	}
}

// TestStepperMatchesForward walks the whole forward op by op and compares the logits with
// ForwardAll's.
func TestStepperMatchesForward(t *testing.T) {
	for name, c := range stepperModels(t) {
		s, err := c.m.Stepper(c.ids)
		if err != nil {
			t.Fatal(err)
		}
		ops := 0
		for !s.Done() {
			op := s.Next()
			if op.Index != ops || op.What == "" || op.Output == nil || op.Output.Len() != len(op.Output.Data) {
				t.Fatalf("%s: op %d: %+v", name, ops, op)
			}
			ops++
		}
		if s.Next() != nil {
			t.Errorf("%s: Next after Done returned an op", name)
		}
		want, err := c.m.ForwardAll([][]int{c.ids})
		if err != nil {
			t.Fatal(err)
		}
		d := relDiff(s.Logits().Data, want.Logits)
		t.Logf("%s: %d ops over %d positions; logits vs ForwardAll: max |diff| / max |logit| = %.3g", name, ops, len(c.ids), d)
		if d > 1e-5 {
			t.Errorf("%s: stepped logits differ from ForwardAll's by a relative %.3g > 1e-5", name, d)
		}
		if want := 3 + 20*c.m.Config.Layers + 4; ops != want || s.Len() != want {
			t.Errorf("%s: %d ops (Len %d), want %d", name, ops, s.Len(), want)
		}
	}
}

// TestStepperNames checks that the ops make every hook point in forward order, with its
// shape, and that the names of their own are the three documented kinds.
func TestStepperNames(t *testing.T) {
	m := newTestModel(t, Tiny, 6)
	ids := []int{1, 2, 3, 4, 5}
	s, err := m.Stepper(ids)
	if err != nil {
		t.Fatal(err)
	}
	var made []string
	for op := s.Next(); op != nil; op = s.Next() {
		hp, err := LookupHook(m.Config, op.Name)
		if err != nil {
			if !strings.HasSuffix(op.Name, ".out") && !strings.HasSuffix(op.Name, "attn.scores") {
				t.Errorf("op %d makes %q, neither a hook point nor one of the Stepper's own names", op.Index, op.Name)
			}
			continue
		}
		if want := hp.Shape(m.Config, 1, len(ids)); !slices.Equal(op.Output.Shape, want) {
			t.Errorf("%s: shape %v, want %v", op.Name, op.Output.Shape, want)
		}
		made = append(made, op.Name)
	}
	var want []string
	for _, n := range HookNames(m.Config) {
		if strings.HasSuffix(n, "hook_resid_pre") && n != "blocks.0.hook_resid_pre" {
			continue // the previous block's hook_resid_post
		}
		want = append(want, n)
	}
	if !slices.Equal(made, want) {
		t.Errorf("hook points made:\n%v\nwant\n%v", made, want)
	}
}

// TestStepperChangeReachesLogits changes one value of blocks.0.hook_resid_mid, steps to the
// end, and compares the logits with a forward recomputed by hand from the changed stream.
func TestStepperChangeReachesLogits(t *testing.T) {
	m := newTestModel(t, Tiny, 7)
	ids := randomIDs(rand.New(rand.NewPCG(7, 8)), 9, Tiny.VocabSize)
	s, err := m.Stepper(ids)
	if err != nil {
		t.Fatal(err)
	}
	op, err := s.RunTo("blocks.0.hook_resid_mid")
	if err != nil {
		t.Fatal(err)
	}
	mid := s.Output()
	if op.Output != mid || mid.Name != "blocks.0.hook_resid_mid" {
		t.Fatalf("RunTo returned %s, Output is %s", op.Name, mid.Name)
	}
	mid.Set(mid.At(0, 4, 3)+2.5, 0, 4, 3)
	got := s.Run()

	// By hand: the rest of block 0 from the changed stream, then blocks 1 … L-1 and ln_f.
	cfg := m.Config
	T, C, V, NH := len(ids), cfg.Channels, cfg.VocabSize, cfg.Heads
	x := slices.Clone(mid.Data)
	ln := make([]float32, T*C)
	fch, gelu := make([]float32, T*4*C), make([]float32, T*4*C)
	proj := make([]float32, T*C)
	w := &m.Params.H[0]
	layernormForward(ln, nil, nil, x, w.Ln2W, w.Ln2B, T, C)
	matmulNaive(fch, ln, w.CFcW, w.CFcB, T, C, 4*C)
	geluNaive(gelu, fch, T*4*C)
	matmulNaive(proj, gelu, w.MlpCProjW, w.MlpCProjB, T, 4*C, C)
	residualForward(x, x, proj, T*C)
	qkv, atty := make([]float32, T*3*C), make([]float32, T*C)
	for l := 1; l < cfg.Layers; l++ {
		w := &m.Params.H[l]
		layernormForward(ln, nil, nil, x, w.Ln1W, w.Ln1B, T, C)
		matmulNaive(qkv, ln, w.CAttnW, w.CAttnB, T, C, 3*C)
		attentionNaive(atty, nil, qkv, 1, T, C, NH)
		matmulNaive(proj, atty, w.AttnCProjW, w.AttnCProjB, T, C, C)
		residualForward(x, x, proj, T*C)
		layernormForward(ln, nil, nil, x, w.Ln2W, w.Ln2B, T, C)
		matmulNaive(fch, ln, w.CFcW, w.CFcB, T, C, 4*C)
		geluNaive(gelu, fch, T*4*C)
		matmulNaive(proj, gelu, w.MlpCProjW, w.MlpCProjB, T, 4*C, C)
		residualForward(x, x, proj, T*C)
	}
	layernormForward(ln, nil, nil, x, m.Params.LnFW, m.Params.LnFB, T, C)
	want := make([]float32, T*V)
	logitsNaive(want, ln, m.Params.Wte, T, C, V)

	plain := naiveForward(m, ids)
	changed := maxDiff(want, plain)
	d := relDiff(got.Data, want)
	t.Logf("the change moves the logits by up to %.3g; stepped vs by hand: relative %.3g", changed, d)
	if changed < 1e-3 {
		t.Fatalf("the change moved the hand-computed logits by only %g: the test would not notice it lost", changed)
	}
	if d > 1e-5 {
		t.Errorf("stepped logits after the change differ from the hand forward by a relative %.3g > 1e-5", d)
	}
	// Positions before 4 cannot see the change: their logits are the plain forward's.
	if d := relDiff(got.Data[:4*V], plain[:4*V]); d > 1e-5 {
		t.Errorf("positions 0…3 moved by a relative %.3g: the change leaked into the past", d)
	}
}

func TestStepperErrors(t *testing.T) {
	m := newTestModel(t, Tiny, 8)
	if _, err := m.WithPrecision(BF16).Stepper([]int{1, 2}); err == nil || !strings.Contains(err.Error(), "WithPrecision(gpt.FP32)") {
		t.Errorf("BF16: %v", err)
	}
	if _, err := m.Stepper([]int{1, 9999}); err == nil || !strings.Contains(err.Error(), "outside the vocabulary") {
		t.Errorf("bad id: %v", err)
	}
	s, _ := m.Stepper([]int{1, 2, 3})
	if _, err := s.RunTo("blocks.1.hook_resid_pre"); err != nil || s.Current().Name != "blocks.0.hook_resid_post" {
		t.Errorf("RunTo blocks.1.hook_resid_pre: %v, at %v", err, s.Current())
	}
	if _, err := s.RunTo("blocks.0.attn.hook_q"); err == nil || !strings.Contains(err.Error(), "already performed") {
		t.Errorf("RunTo the past: %v", err)
	}
	if _, err := s.RunTo("blocks.7.attn.hook_q"); err == nil || !strings.Contains(err.Error(), "no op") {
		t.Errorf("RunTo a block the model has not: %v", err)
	}
}

// TestStepperHTML renders the stepper at every op and checks that the current op is the
// one highlighted and that its output is drawn by its kind.
func TestStepperHTML(t *testing.T) {
	m := newTestModel(t, Tiny, 9)
	s, err := m.Stepper([]int{3, 1, 4, 1, 5})
	if err != nil {
		t.Fatal(err)
	}
	if h := s.HTML(); !strings.Contains(h, "nothing computed yet") {
		t.Errorf("before the first op: %.200s", h)
	}
	for op := s.Next(); op != nil; op = s.Next() {
		h := s.HTML()
		if op.Name != "blocks.0.hook_resid_pre" && !strings.Contains(h, `fill="#f4a261"`) {
			t.Errorf("op %d %s: nothing highlighted", op.Index, op.Name)
		}
		if !strings.Contains(h, "<code>"+op.Name+"</code>") {
			t.Errorf("op %d: the HTML does not name %s", op.Index, op.Name)
		}
		var want string
		switch {
		case strings.HasSuffix(op.Name, "hook_pattern") || strings.HasSuffix(op.Name, "scores"):
			want = "head 3"
		case strings.HasSuffix(op.Name, "hook_scale"):
			want = "<th>value</th>"
		case op.Name == "logits":
			want = "the largest logits"
		default:
			want = "features 0…"
		}
		if !strings.Contains(h, want) {
			t.Errorf("op %d %s: the output drawing lacks %q", op.Index, op.Name, want)
		}
	}
}
