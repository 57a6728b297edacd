package gpt

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// tableNames reads the table of hookpoints.go for a model of cfg: the hook points, and the
// ops a Stepper should make, in forward order.
func tableNames(cfg Config) (hooks, ops []string) {
	each := func(l int, rows []hookSite) {
		for _, s := range rows {
			name := hookName(l, s.name)
			if s.isHook(cfg) {
				hooks = append(hooks, name)
			}
			if s.label != "" && (s.isHook(cfg) || s.kind == stepOnly) && !(l > 0 && s.name == "hook_resid_pre") {
				ops = append(ops, name)
			}
		}
	}
	each(-1, hooksBefore)
	for l := 0; l < cfg.Layers; l++ {
		each(l, hooksBlock)
	}
	each(-1, hooksAfter)
	return hooks, ops
}

// TestTableMakesNamesAndOps checks that the hook names, the names a full cache keeps and
// the Stepper's ops all follow from the table, with and without the optional hook point
// blocks.l.hook_mlp_in: a hook point is a row of the table and the line of the forward that
// hands it over, and nothing else.
func TestTableMakesNamesAndOps(t *testing.T) {
	for _, on := range []bool{false, true} {
		cfg := Tiny
		cfg.HookMLPIn = on
		m := newTestModel(t, cfg, 11)
		ids := randomIDs(rand.New(rand.NewPCG(11, 12)), 6, cfg.VocabSize)
		hooks, ops := tableNames(cfg)

		if got := HookNames(cfg); !slices.Equal(got, hooks) {
			t.Errorf("HookMLPIn %v: HookNames\n%v\nwant the table's\n%v", on, got, hooks)
		}
		_, cache, err := m.RunWithCache(ids, "**")
		if err != nil {
			t.Fatal(err)
		}
		if got := cache.Names(); !slices.Equal(got, hooks) {
			t.Errorf("HookMLPIn %v: the cache keeps\n%v\nwant the table's hook points\n%v", on, got, hooks)
		}

		s, err := m.Stepper(ids)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Names(); !slices.Equal(got, ops) {
			t.Errorf("HookMLPIn %v: the Stepper plans\n%v\nwant the table's ops\n%v", on, got, ops)
		}
		var made []string
		for op := s.Next(); op != nil; op = s.Next() {
			made = append(made, op.Name)
			for i, in := range op.Inputs {
				if in == nil || in.Name == "" || len(in.Data) != product(in.Shape) {
					t.Errorf("HookMLPIn %v: op %s: input %d is %v", on, op.Name, i, in)
				}
			}
			if want := cache.acts[op.Name]; want != nil && maxDiff(op.Output.Data, want.Data) > 1e-5 {
				t.Errorf("HookMLPIn %v: op %s differs from the cache's by %g", on, op.Name, maxDiff(op.Output.Data, want.Data))
			}
		}
		if !slices.Equal(made, ops) {
			t.Errorf("HookMLPIn %v: the Stepper made\n%v\nwant\n%v", on, made, ops)
		}
		if want := 3 + 20*cfg.Layers + 4; on {
			if s.Len() != want+cfg.Layers {
				t.Errorf("HookMLPIn: %d ops, want %d", s.Len(), want+cfg.Layers)
			}
		} else if s.Len() != want {
			t.Errorf("%d ops, want %d", s.Len(), want)
		}
	}
}

// TestHookMLPIn checks TransformerLens's meaning of hook_mlp_in: a copy of hook_resid_mid
// that ln_2 reads, so a change to it reaches the MLP and not the stream; unchanged, it
// changes nothing.
func TestHookMLPIn(t *testing.T) {
	off := newTestModel(t, Tiny, 13)
	on := off.Share()
	on.Config.HookMLPIn = true
	ids := randomIDs(rand.New(rand.NewPCG(13, 14)), 7, Tiny.VocabSize)
	plain, _, err := off.RunWithCache(ids, "**")
	if err != nil {
		t.Fatal(err)
	}
	same, clean, err := on.RunWithCache(ids, "**")
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(same.Logits, plain.Logits); d != 0 {
		t.Errorf("HookMLPIn with no hook moves the logits by %g", d)
	}
	if d := maxDiff(clean.MustGet("blocks.1.hook_mlp_in").Data, clean.MustGet("blocks.1.hook_resid_mid").Data); d != 0 {
		t.Errorf("hook_mlp_in differs from hook_resid_mid by %g", d)
	}
	if _, err := off.RunWithHooks(ids, Hook{Name: "blocks.0.hook_mlp_in", Fn: func(*Activation) {}}); err == nil || !strings.Contains(err.Error(), "hook_mlp_in") {
		t.Errorf("hook_mlp_in without Config.HookMLPIn: %v", err)
	}

	shift := Hook{Name: "blocks.0.hook_mlp_in", Fn: func(a *Activation) {
		for i := range a.Data {
			a.Data[i] += float32(i%5) * 0.3
		}
	}}
	_, cache, err := on.runHooked("test", [][]int{ids}, []Hook{shift}, func(string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(cache.MustGet("blocks.0.hook_resid_mid").Data, clean.MustGet("blocks.0.hook_resid_mid").Data); d != 0 {
		t.Errorf("changing hook_mlp_in moved hook_resid_mid by %g: it must be a copy", d)
	}
	if d := maxDiff(cache.MustGet("blocks.0.ln2.hook_normalized").Data, clean.MustGet("blocks.0.ln2.hook_normalized").Data); d < 1e-3 {
		t.Errorf("changing hook_mlp_in moved ln_2 by only %g: ln_2 must read it", d)
	}
}

// TestNaiveForwardIsTheSteps checks that Forward's readable side runs the same steps as a
// hooked run: with useFast off both give the same logits, bit for bit.
func TestNaiveForwardIsTheSteps(t *testing.T) {
	m := newTestModel(t, Tiny, 15)
	ids := randomIDs(rand.New(rand.NewPCG(15, 16)), 9, Tiny.VocabSize)
	naive(func() {
		plain, err := m.ForwardAll([][]int{ids})
		if err != nil {
			t.Fatal(err)
		}
		hooked, err := m.RunWithHooks(ids, Hook{Name: "blocks.*.attn.hook_pattern", Fn: func(*Activation) {}})
		if err != nil {
			t.Fatal(err)
		}
		if d := maxDiff(plain.Logits, hooked.Logits); d != 0 {
			t.Errorf("the readable Forward and the hooked run differ by %g", d)
		}
	})
}
