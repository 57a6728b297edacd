package gpt_test

import (
	"math"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
)

// On the shipped model, zero-ablating a head through its hook_z changes the loss exactly
// as much as zeroing that head's rows of attn.c_proj in a copy of the weights and running
// the plain Forward: two independent paths to the same ablation.
func TestHeadAblationShipped(t *testing.T) {
	m, tok, _ := loadShipped(t)
	ids := tok.Encode("\tif err != nil {\n\t\treturn nil, err\n\t}\n")
	lm, err := m.HeadAblation(ids, gpt.ZeroAblation, -1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.Config
	if len(lm.Values) != cfg.Layers || len(lm.Values[0]) != cfg.Heads {
		t.Fatalf("map of %d×%d, want %d×%d", len(lm.Values), len(lm.Values[0]), cfg.Layers, cfg.Heads)
	}
	l, h, top := lm.Max()
	t.Logf("%s\nlargest: layer %d head %d, %.4f", lm, l, h, top)
	if top == 0 {
		t.Fatalf("no head changes the loss")
	}
	loss := func(m *gpt.Model) float64 {
		out, err := m.Forward([][]int{ids[:len(ids)-1]}, [][]int{ids[1:]})
		if err != nil {
			t.Fatal(err)
		}
		return float64(out.Loss)
	}
	base := loss(m)
	HS := cfg.Channels / cfg.Heads
	for _, c := range [][2]int{{l, h}, {0, 0}, {cfg.Layers - 1, cfg.Heads - 1}} {
		cut, _, err := gpt.Load(shippedModel)
		if err != nil {
			t.Fatal(err)
		}
		w := cut.Params.H[c[0]].AttnCProjW // (C, C): the head's HS rows
		clear(w[c[1]*HS*cfg.Channels : (c[1]+1)*HS*cfg.Channels])
		want := loss(cut) - base
		got := lm.Values[c[0]][c[1]]
		t.Logf("layer %d head %d: hooked %.5f, weights zeroed %.5f", c[0], c[1], got, want)
		if math.Abs(got-want) > 1e-4 {
			t.Errorf("layer %d head %d: ablation through hook_z changes the loss by %.5f, zeroing its weights by %.5f", c[0], c[1], got, want)
		}
	}
	mean, err := m.HeadAblation(ids, gpt.MeanAblation, 274)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", mean)
}

// Patching on the shipped model: "for i := 0; i < n;" against "for j := 0; j < n;", the
// answer " i" against " j". Position 0 is the same tab in both and sees only itself, so
// patching it recovers nothing at any layer; the last block's output at the last position
// is everything the logits read, so patching it recovers everything.
func TestActivationPatchingShipped(t *testing.T) {
	m, tok, _ := loadShipped(t)
	p := gpt.Patching{
		Clean: tok.Encode("\tfor i := 0; i < n;"), Corrupted: tok.Encode("\tfor j := 0; j < n;"),
		Right: tok.Encode(" i")[0], Wrong: tok.Encode(" j")[0], Decoder: tok,
	}
	for _, site := range []string{"", "hook_resid_post", "attn.hook_z"} {
		p.Site = site
		lm, err := m.ActivationPatching(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s", lm)
		T, L := len(p.Clean), m.Config.Layers
		for l := 0; l < L; l++ {
			if lm.Values[l][0] != 0 {
				t.Errorf("site %q layer %d: patching position 0 recovers %g, want 0", site, l, lm.Values[l][0])
			}
		}
		if site == "hook_resid_post" && math.Abs(lm.Values[L-1][T-1]-1) > 1e-5 {
			t.Errorf("patching the last block's output at the last position recovers %g, want 1", lm.Values[L-1][T-1])
		}
	}
	p.Site = "attn.hook_pattern"
	if _, err := m.ActivationPatching(p); err == nil {
		t.Errorf("patching a (B, NH, T, T) site by position: no error")
	}
	p.Site, p.Corrupted = "", p.Corrupted[1:]
	if _, err := m.ActivationPatching(p); err == nil {
		t.Errorf("prompts of unequal length: no error")
	}
}

// RunWithCache's logits on the shipped model equal ForwardAll's to a relative 1e-5.
func TestRunWithCacheShipped(t *testing.T) {
	m, tok, _ := loadShipped(t)
	ids := tok.Encode("package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello, world\")\n}\n")
	want, err := m.ForwardAll([][]int{ids})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := m.RunWithCache(ids)
	if err != nil {
		t.Fatal(err)
	}
	var d, top float64
	for i := range want.Logits {
		d = math.Max(d, math.Abs(float64(got.Logits[i]-want.Logits[i])))
		top = math.Max(top, math.Abs(float64(want.Logits[i])))
	}
	t.Logf("%d tokens: max |Δlogit| %.3g, largest |logit| %.3g, relative %.3g", len(ids), d, top, d/top)
	if d > 1e-5*top {
		t.Errorf("RunWithCache's logits differ from ForwardAll's by %.3g relative", d/top)
	}
}
