package gpt

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestHookPointsOrderAndLookup(t *testing.T) {
	cfg := Tiny
	names := HookNames(cfg)
	if want := cfg.Layers*18 + 5; len(names) != want {
		t.Fatalf("%d hook names, want %d", len(names), want)
	}
	if names[0] != "hook_embed" || names[2] != "blocks.0.hook_resid_pre" || names[len(names)-1] != "logits" {
		t.Errorf("order: first %q, third %q, last %q", names[0], names[2], names[len(names)-1])
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("%q twice", n)
		}
		seen[n] = true
		p, err := LookupHook(cfg, n)
		if err != nil || p.Name != n {
			t.Errorf("LookupHook(%q) = %v, %v", n, p.Name, err)
		}
	}
	p, _ := LookupHook(cfg, "blocks.1.attn.hook_result")
	if got := p.Shape(cfg, 2, 7); len(got) != 4 || got[0] != 2 || got[1] != 7 || got[2] != cfg.Heads || got[3] != cfg.Channels {
		t.Errorf("hook_result shape %v", got)
	}
	for _, bad := range []string{"blocks.99.hook_resid_pre", "blocks.0.attn.hook_qq", "hook_nothing", "blocks.x.hook_z"} {
		if _, err := LookupHook(cfg, bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("LookupHook(%q) error %v, want one naming it", bad, err)
		}
	}
}

func TestMatchHook(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"blocks.*.attn.hook_pattern", "blocks.3.attn.hook_pattern", true},
		{"blocks.*.attn.hook_pattern", "blocks.3.attn.hook_attn_scores", false},
		{"blocks.3.*", "blocks.3.hook_resid_pre", true},
		{"blocks.3.*", "blocks.3.attn.hook_q", false},
		{"blocks.3.**", "blocks.3.attn.hook_q", true},
		{"blocks.3.**", "blocks.3", false},
		{"logits", "logits", true},
		{"hook_embed", "hook_pos_embed", false},
	} {
		if got := MatchHook(c.pattern, c.name); got != c.want {
			t.Errorf("MatchHook(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}

func TestActivationIndexAndStats(t *testing.T) {
	a := &Activation{Name: "blocks.0.attn.hook_attn_scores", Shape: []int{1, 1, 2, 2}, Data: []float32{1, float32(math.Inf(-1)), 3, 5}}
	if a.At(0, 0, 1, 0) != 3 {
		t.Errorf("At(0,0,1,0) = %v, want 3", a.At(0, 0, 1, 0))
	}
	a.Set(7, 0, 0, 1, 1)
	if a.Data[3] != 7 {
		t.Errorf("Set did not write Data[3]: %v", a.Data)
	}
	mean, std, norm := a.Stats() // over 1, 3, 7: the −Inf of the mask is skipped
	if math.Abs(mean-11.0/3) > 1e-9 || math.Abs(norm-math.Sqrt(59)) > 1e-9 || std <= 0 {
		t.Errorf("Stats = %v %v %v", mean, std, norm)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "outside [0, 2)") {
			t.Errorf("At out of range: recovered %v", r)
		}
	}()
	a.At(0, 0, 2, 0)
}
