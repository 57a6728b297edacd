package gpt

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// A hook that changes blocks.0.hook_resid_mid changes everything after it: every later
// activation and the logits equal a forward recomputed here, with the naive kernels, from
// the patched tensor — and differ from the unpatched run's.
func TestRunWithHooksChangeReachesEveryLaterOp(t *testing.T) {
	m := newTestModel(t, Tiny, 8)
	batch := [][]int{{4, 8, 15, 16, 23, 42, 99}}
	T, C, NH, V := 7, Tiny.Channels, Tiny.Heads, Tiny.VocabSize
	patch := Hook{Name: "blocks.0.hook_resid_mid", Fn: func(a *Activation) {
		for t := 0; t < T; t++ {
			for i := 0; i < C; i++ {
				a.Set(a.At(0, t, i)+float32(math.Sin(float64(t*C+i))), 0, t, i)
			}
		}
	}}
	all := func(string) bool { return true }
	clean, _, err := m.runHooked("test", batch, nil, all)
	if err != nil {
		t.Fatal(err)
	}
	out, c, err := m.runHooked("test", batch, []Hook{patch}, all)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(out.Logits, clean.Logits); d < 1e-3 {
		t.Fatalf("the patch changed the logits by only %g", d)
	}

	// By hand, from the patched resid_mid on.
	check := func(name string, want []float32) {
		t.Helper()
		got := c.MustGet(name).Data
		if d := maxDiff(got, want); d > 1e-5*math.Max(1, maxAbs(want)) {
			t.Errorf("%s: max |diff| %g from the forward recomputed by hand", name, d)
		}
	}
	x := append([]float32(nil), c.MustGet("blocks.0.hook_resid_mid").Data...)
	ln, qkv := make([]float32, T*C), make([]float32, T*3*C)
	z, proj := make([]float32, T*C), make([]float32, T*C)
	pre, post := make([]float32, T*4*C), make([]float32, T*4*C)
	mlpHalf := func(l int, w *Block) {
		p := fmt.Sprintf("blocks.%d.", l)
		layernormForward(ln, nil, nil, x, w.Ln2W, w.Ln2B, T, C)
		matmulNaive(pre, ln, w.CFcW, w.CFcB, T, C, 4*C)
		check(p+"mlp.hook_pre", pre)
		geluNaive(post, pre, T*4*C)
		check(p+"mlp.hook_post", post)
		matmulNaive(proj, post, w.MlpCProjW, w.MlpCProjB, T, 4*C, C)
		check(p+"hook_mlp_out", proj)
		residualForward(x, x, proj, T*C)
		check(p+"hook_resid_post", x)
	}
	mlpHalf(0, &m.Params.H[0])
	w := &m.Params.H[1]
	check("blocks.1.hook_resid_pre", x)
	layernormForward(ln, nil, nil, x, w.Ln1W, w.Ln1B, T, C)
	matmulNaive(qkv, ln, w.CAttnW, w.CAttnB, T, C, 3*C)
	q, k, v := make([]float32, T*C), make([]float32, T*C), make([]float32, T*C)
	for n := 0; n < T; n++ {
		copy(q[n*C:], qkv[n*3*C:n*3*C+C])
		copy(k[n*C:], qkv[n*3*C+C:n*3*C+2*C])
		copy(v[n*C:], qkv[n*3*C+2*C:n*3*C+3*C])
	}
	check("blocks.1.attn.hook_q", q)
	check("blocks.1.attn.hook_k", k)
	check("blocks.1.attn.hook_v", v)
	att := make([]float32, NH*T*T)
	attentionNaive(z, att, qkv, 1, T, C, NH)
	check("blocks.1.attn.hook_pattern", att)
	check("blocks.1.attn.hook_z", z)
	matmulNaive(proj, z, w.AttnCProjW, w.AttnCProjB, T, C, C)
	check("blocks.1.hook_attn_out", proj)
	residualForward(x, x, proj, T*C)
	check("blocks.1.hook_resid_mid", x)
	mlpHalf(1, w)
	layernormForward(ln, nil, nil, x, m.Params.LnFW, m.Params.LnFB, T, C)
	logits := make([]float32, T*V)
	logitsNaive(logits, ln, m.Params.Wte, T, C, V)
	check("logits", logits)
	if d := maxDiff(out.Logits, logits); d > 1e-5*maxAbs(logits) {
		t.Errorf("output logits differ from the forward by hand by %g", d)
	}
}

// A hook that assigns a new slice works like one that writes in place; hooks on a
// pattern run at every layer, in forward order; and the errors name the hook.
func TestRunWithHooksPatternsAndErrors(t *testing.T) {
	m := newTestModel(t, Tiny, 9)
	ids := []int{1, 2, 3, 4}
	var seen []string
	spy := Hook{Name: "blocks.*.attn.hook_pattern", Fn: func(a *Activation) { seen = append(seen, a.Name) }}
	inPlace := Hook{Name: "blocks.1.hook_mlp_out", Fn: func(a *Activation) { clear(a.Data) }}
	assign := Hook{Name: "blocks.1.hook_mlp_out", Fn: func(a *Activation) { a.Data = make([]float32, len(a.Data)) }}
	o1, err := m.RunWithHooks(ids, spy, inPlace)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(seen, " ") != "blocks.0.attn.hook_pattern blocks.1.attn.hook_pattern" {
		t.Errorf("the pattern hook saw %v", seen)
	}
	o2, err := m.RunWithHooks(ids, assign)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(o1.Logits, o2.Logits); d != 0 {
		t.Errorf("assigning a zero slice and clearing in place differ by %g", d)
	}
	plain, _ := m.RunWithHooks(ids)
	if maxDiff(plain.Logits, o1.Logits) == 0 {
		t.Errorf("zeroing the last MLP's output changed nothing")
	}

	for _, c := range []struct {
		hook Hook
		want string
	}{
		{Hook{"blocks.9.attn.hook_q", func(*Activation) {}}, `hook "blocks.9.attn.hook_q": gpt: no hook point "blocks.9.attn.hook_q": blocks are 0 … 1`},
		{Hook{"blocks.*.attn.hook_nothing", func(*Activation) {}}, `hook pattern "blocks.*.attn.hook_nothing" matches no hook point`},
		{Hook{"hook_embed", nil}, `hook "hook_embed" has no function`},
		{Hook{"blocks.0.attn.hook_z", func(a *Activation) { a.Data = a.Data[:3] }}, `hook "blocks.0.attn.hook_z": Data has 3 values after the hook, want 128 (shape [1 4 4 8])`},
		{Hook{"blocks.0.attn.hook_z", func(a *Activation) { a.Set(1, 0, 9, 0, 0) }}, "panic: gpt: blocks.0.attn.hook_z: index 9 of dimension 1 is outside [0, 4)"},
	} {
		_, err := m.RunWithHooks(ids, c.hook)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("hook %q: error %v, want one containing %q", c.hook.Name, err, c.want)
		}
	}
}
