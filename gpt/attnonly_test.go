package gpt

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// attnOnly is a two-layer attention-only model's shape, as the first interpretability
// lessons use, small enough for gradient checks.
var attnOnly = Config{VocabSize: 128, BlockSize: 64, Layers: 2, Heads: 4, Channels: 32, AttnOnly: true}

// An attention-only block has ln_1 and attention only: six tensors, no ln_2, no MLP.
func TestAttnOnlyLayout(t *testing.T) {
	full := attnOnly
	full.AttnOnly = false
	C := attnOnly.Channels
	mlp := 2*C + C*4*C + 4*C + 4*C*C + C // ln_2, c_fc, mlp.c_proj per block
	if got, want := attnOnly.NumParams(), full.NumParams()-attnOnly.Layers*mlp; got != want {
		t.Errorf("NumParams %d, want %d (the full model's less %d per block)", got, want, mlp)
	}
	for _, ts := range Layout(attnOnly) {
		if strings.Contains(ts.Name, "mlp") || strings.Contains(ts.Name, "ln_2") {
			t.Errorf("attention-only layout has %s", ts.Name)
		}
	}
	m := newTestModel(t, attnOnly, 1)
	if b := m.Params.H[1]; b.CFcW != nil || b.Ln2W != nil || b.CAttnW == nil {
		t.Errorf("block 1's views: c_fc %v, ln_2 %v, c_attn %v; want only attention's", b.CFcW != nil, b.Ln2W != nil, b.CAttnW != nil)
	}
	if c := Count(attnOnly); c.PerBlock != 2*C+C*3*C+3*C+C*C+C {
		t.Errorf("Count: %d parameters per block", c.PerBlock)
	}
	bad := attnOnly
	bad.HookMLPIn = true
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "no MLP") {
		t.Errorf("HookMLPIn in an attention-only config: %v", err)
	}
}

// The forward is naive's (hook-free readable steps) on both sides of the seam, and the
// backward agrees with finite differences: the MLP's absence is in both.
func TestAttnOnlyForwardBackward(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	ids, tgt := make([][]int, 2), make([][]int, 2)
	for b := range ids {
		seq := randomIDs(rng, 41, attnOnly.VocabSize)
		ids[b], tgt[b] = seq[:40], seq[1:]
	}
	run := func() (*Output, []float32) { return forwardBackward(t, attnOnly, 3, ids, tgt) }
	fastOut, fastGrads := run()
	var slowOut *Output
	var slowGrads []float32
	naive(func() { slowOut, slowGrads = run() })
	if d := maxDiff(fastOut.Logits, slowOut.Logits); d > 1e-4 {
		t.Errorf("logits fast vs naive: max |diff| %g", d)
	}
	if d := maxDiff(fastGrads, slowGrads); d > 1e-5 {
		t.Errorf("gradients fast vs naive: max |diff| %g", d)
	}
	// Every entry of every tensor against finite differences, as TestBackwardMatchesFiniteDifferences.
	cfg := gradCheckConfig
	cfg.AttnOnly = true
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(1, true)
	perturb(m.Params, 2)
	x, y := randomBatch(rand.New(rand.NewPCG(3, 3)), 2, 8, cfg.VocabSize)
	rows, err := GradCheck(m, x, y, 1e-2, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkGrads(t, rows, 1e-2)
}

// The hook points follow from the table: the full model's less the MLP's and
// hook_resid_mid, and hook_resid_post is resid_pre + attn_out. The cache holds exactly
// those names, the Stepper's ops are the table's rows, and both end at ForwardAll's logits.
func TestAttnOnlyHooksStepperCache(t *testing.T) {
	m := newTestModel(t, attnOnly, 4)
	ids := randomIDs(rand.New(rand.NewPCG(4, 4)), 24, attnOnly.VocabSize)
	names := HookNames(attnOnly)
	if got, want := len(names), attnOnly.Layers*12+5; got != want {
		t.Errorf("%d hook points, want %d", got, want)
	}
	for _, n := range names {
		for _, gone := range []string{"mlp", "resid_mid", "ln2"} {
			if strings.Contains(n, gone) {
				t.Errorf("hook point %s in an attention-only model", n)
			}
		}
	}
	if _, err := LookupHook(attnOnly, "blocks.0.hook_mlp_out"); err == nil {
		t.Error("LookupHook found blocks.0.hook_mlp_out")
	}
	out, cache, err := m.RunWithCache(ids, "**")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cache.Names(), names) {
		t.Errorf("cache names\n%v\nwant\n%v", cache.Names(), names)
	}
	pre, attn, post := cache.MustGet("blocks.1.hook_resid_pre"), cache.MustGet("blocks.1.hook_attn_out"), cache.MustGet("blocks.1.hook_resid_post")
	for i := range post.Data {
		if post.Data[i] != pre.Data[i]+attn.Data[i] {
			t.Fatalf("resid_post[%d] %g, want resid_pre + attn_out = %g", i, post.Data[i], pre.Data[i]+attn.Data[i])
		}
	}
	if _, _, err := m.RunWithCache(ids); err != nil { // the default names, less the MLP's
		t.Errorf("RunWithCache with the default names: %v", err)
	}
	want, err := m.ForwardAll([][]int{ids})
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(out.Logits, want.Logits); d > 1e-4 {
		t.Errorf("RunWithCache logits vs ForwardAll: max |diff| %g", d)
	}

	s, err := m.Stepper(ids)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for _, p := range stepPlan(attnOnly) {
		plan = append(plan, p.name)
	}
	if !slices.Equal(s.Names(), plan) || slices.ContainsFunc(plan, func(n string) bool { return strings.Contains(n, "mlp") }) {
		t.Errorf("stepper ops %v", s.Names())
	}
	op, err := s.RunTo("blocks.0.hook_resid_post")
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{op.Inputs[0].Name, op.Inputs[1].Name}; !slices.Equal(got, []string{"blocks.0.hook_resid_pre", "blocks.0.hook_attn_out"}) {
		t.Errorf("blocks.0.hook_resid_post reads %v", got)
	}
	if d := maxDiff(s.Run().Data, want.Logits); d > 1e-4 {
		t.Errorf("Stepper logits vs ForwardAll: max |diff| %g", d)
	}
}

// Saved and loaded (fp32 and bf16), the model is the same attention-only model; cached
// generation equals uncached, and a recording Generator records its hook points.
func TestAttnOnlySaveLoadGenerate(t *testing.T) {
	m := newTestModel(t, attnOnly, 5)
	path := filepath.Join(t.TempDir(), "attn-only.safetensors")
	if err := Save(path, m, nil); err != nil {
		t.Fatal(err)
	}
	back, meta, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Config != attnOnly || meta["attn_only"] != "true" || !slices.Equal(back.Params.Data, m.Params.Data) {
		t.Fatalf("loaded %v (attn_only %q), want %v with the same weights", back.Config, meta["attn_only"], attnOnly)
	}
	b16, _, err := LoadAs(path, BF16)
	if err != nil {
		t.Fatal(err)
	}
	prompt := randomIDs(rand.New(rand.NewPCG(5, 5)), 8, attnOnly.VocabSize)
	for _, model := range []*Model{back, b16} {
		var runs [2][]int
		for i, cached := range []bool{false, true} {
			g, err := NewGenerator(model, prompt, Greedy, cached)
			if err != nil {
				t.Fatal(err)
			}
			if cached {
				g.Record = []string{"blocks.*.attn.hook_pattern"}
			}
			if _, err := g.Steps(12); err != nil {
				t.Fatal(err)
			}
			runs[i] = g.Tokens()
			if cached {
				rec, err := g.Recorded()
				if err != nil {
					t.Fatal(err)
				}
				if got := rec.Names(); len(got) != attnOnly.Layers {
					t.Errorf("%s: recorded %v", model.Precision, got)
				}
			}
		}
		if !slices.Equal(runs[0], runs[1]) {
			t.Errorf("%s: uncached %v, cached %v", model.Precision, runs[0], runs[1])
		}
	}
}
