package gpt

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// relDiff is max |a−b| over max |b|.
func relDiff(a, b []float32) float64 {
	return maxDiff(a, b) / maxAbs(b)
}

// The hooked forward (readable attention, LayerNorm in steps) gives Forward's logits to a
// relative 1e-5, with hook_result computed or not, for a batch of two sequences; every hook
// point is cached, in forward order, with its table's shape.
func TestRunWithCacheMatchesForward(t *testing.T) {
	m := newTestModel(t, Tiny, 3)
	batch := [][]int{{5, 9, 200, 3, 77, 1, 300}, {8, 8, 8, 8, 511, 0, 2}}
	want, err := m.ForwardAll(batch)
	if err != nil {
		t.Fatal(err)
	}
	for _, names := range [][]string{{"**"}, DefaultCacheNames} {
		out, cache, err := m.runHooked("test", batch, nil, func(n string) bool { return matchedByAny(n, names) })
		if err != nil {
			t.Fatal(err)
		}
		d := relDiff(out.Logits, want.Logits)
		t.Logf("cache %v: %d activations, logits relative max |diff| %.3g", names, len(cache.Names()), d)
		if d > 1e-5 || out.B != 2 || out.T != 7 {
			t.Errorf("cache %v: logits differ from ForwardAll's by %.3g relative (want ≤ 1e-5), shape %d×%d", names, d, out.B, out.T)
		}
		if names[0] != "**" {
			continue
		}
		if got := cache.Names(); !slices.Equal(got, HookNames(Tiny)) {
			t.Errorf("names %v, want HookNames", got)
		}
		for _, p := range HookPoints(Tiny) {
			a := cache.MustGet(p.Name)
			if !slices.Equal(a.Shape, p.Shape(Tiny, 2, 7)) || len(a.Data) != a.Len() {
				t.Errorf("%s: shape %v with %d values, want %v", p.Name, a.Shape, len(a.Data), p.Shape(Tiny, 2, 7))
			}
		}
		if d := maxDiff(cache.MustGet("logits").Data, out.Logits); d != 0 {
			t.Errorf("cached logits differ from the output by %g", d)
		}
	}
}

// Each cached tensor is what its definition says, recomputed here from its neighbours:
// the pattern's rows sum to 1 and are zero above the diagonal, resid_mid = resid_pre +
// attn_out, attn_out = Σ heads' result + bias, the normalised rows have mean 0 and
// variance 1·(var/(var+eps)), and mlp_post = GELU(mlp_pre).
func TestRunWithCacheDefinitions(t *testing.T) {
	m := newTestModel(t, Tiny, 4)
	ids := []int{1, 2, 3, 4, 5, 6}
	_, c, err := m.RunWithCache(ids, "**")
	if err != nil {
		t.Fatal(err)
	}
	T, C, NH := len(ids), Tiny.Channels, Tiny.Heads
	l := 1
	get := func(s string) []float32 { return c.MustGet("blocks.1." + s).Data }
	pat := get("attn.hook_pattern")
	for h := 0; h < NH; h++ {
		for q := 0; q < T; q++ {
			var sum float64
			for k := 0; k < T; k++ {
				p := pat[(h*T+q)*T+k]
				if k > q && p != 0 {
					t.Fatalf("pattern head %d query %d key %d = %g above the diagonal", h, q, k, p)
				}
				sum += float64(p)
			}
			if math.Abs(sum-1) > 1e-6 {
				t.Errorf("pattern head %d query %d sums to %g", h, q, sum)
			}
		}
	}
	mid := make([]float32, T*C)
	residualForward(mid, get("hook_resid_pre"), get("hook_attn_out"), T*C)
	if d := maxDiff(mid, get("hook_resid_mid")); d > 1e-6 {
		t.Errorf("resid_mid ≠ resid_pre + attn_out by %g", d)
	}
	res, out := get("attn.hook_result"), make([]float32, T*C)
	for n := 0; n < T; n++ {
		for i := 0; i < C; i++ {
			s := m.Params.H[l].AttnCProjB[i]
			for h := 0; h < NH; h++ {
				s += res[(n*NH+h)*C+i]
			}
			out[n*C+i] = s
		}
	}
	if d := maxDiff(out, get("hook_attn_out")); d > 1e-5 {
		t.Errorf("attn_out ≠ Σ result + bias by %g", d)
	}
	post := make([]float32, T*4*C)
	geluNaive(post, get("mlp.hook_pre"), T*4*C)
	if d := maxDiff(post, get("mlp.hook_post")); d > 2e-6 {
		t.Errorf("mlp_post ≠ gelu(mlp_pre) by %g", d)
	}
	norm := get("ln2.hook_normalized")
	for n := 0; n < T; n++ {
		row := norm[n*C : (n+1)*C]
		mean := sum64(row) / float64(C)
		if math.Abs(mean) > 1e-5 || math.Abs(sumSquaredDev64(row, 0)/float64(C)-1) > 1e-2 {
			t.Errorf("ln2 normalized row %d: mean %g, variance %g", n, mean, sumSquaredDev64(row, 0)/float64(C))
		}
	}
}

// A BF16 model's hooked forward rounds where Forward does: its logits are as close to
// Forward's as one bf16 step of the largest logit.
func TestRunWithCacheBF16(t *testing.T) {
	m := newTestModel(t, Tiny, 5).WithPrecision(BF16)
	ids := []int{7, 100, 3, 9, 44, 2, 2, 61}
	want, err := m.ForwardAll([][]int{ids})
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := m.RunWithCache(ids)
	if err != nil {
		t.Fatal(err)
	}
	d := relDiff(out.Logits, want.Logits)
	t.Logf("bf16: logits relative max |diff| %.3g (one bf16 step is 2^-8 = %.3g)", d, 1.0/256)
	if d > 2.0/256 {
		t.Errorf("bf16 hooked logits differ from Forward's by %.3g relative", d)
	}
}

func TestActivationCacheAccess(t *testing.T) {
	m := newTestModel(t, Tiny, 6)
	ids := []int{3, 1, 4, 1, 5}
	_, c, err := m.RunWithCache(ids)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get("blocks.0.attn.hook_q"); err == nil || !strings.Contains(err.Error(), "was not kept") {
		t.Errorf("Get of a name not kept: %v", err)
	}
	if _, err := c.Get("blocks.7.attn.hook_z"); err == nil || !strings.Contains(err.Error(), "blocks are 0 … 1") {
		t.Errorf("Get of a bad block: %v", err)
	}
	if _, _, err := m.RunWithCache(ids, "blocks.*.attn.hook_nothing"); err == nil || !strings.Contains(err.Error(), "matches no hook point") {
		t.Errorf("a pattern matching nothing: %v", err)
	}
	p, err := c.Pattern(1)
	if err != nil || !slices.Equal(p.Shape, []int{1, Tiny.Heads, 5, 5}) {
		t.Errorf("Pattern(1): %v, %v", p, err)
	}
	rs, err := c.ResidualStream()
	if err != nil || !slices.Equal(rs.Shape, []int{Tiny.Layers + 1, 1, 5, Tiny.Channels}) {
		t.Fatalf("ResidualStream: %v, %v", rs, err)
	}
	C := Tiny.Channels
	if d := maxDiff(rs.Data[2*5*C:], c.MustGet("blocks.1.hook_resid_post").Data); d != 0 {
		t.Errorf("the stream's last entry differs from resid_post of the last block by %g", d)
	}
	if !strings.Contains(c.HTML(), "<td><code>blocks.1.attn.hook_pattern</code></td><td>[1 4 5 5]</td>") {
		t.Errorf("HTML lacks the pattern's row:\n%s", c.HTML())
	}

	path := filepath.Join(t.TempDir(), "cache.safetensors")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSafetensors(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, n := range c.Names() {
		st, ok := s.Lookup(n)
		a := c.MustGet(n)
		if !ok || !slices.Equal(st.Shape, a.Shape) {
			t.Fatalf("%s: in the file %v (%v), want shape %v", n, ok, st.Shape, a.Shape)
		}
		got := make([]float32, st.Len())
		if err := s.ReadFloat32(st, got); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, a.Data) {
			t.Errorf("%s: read back differently", n)
		}
	}
}

// The logit lens's last stage is the model's own prediction; the direct attributions add
// up to the logit, which is the model's.
func TestLogitLensAndAttribution(t *testing.T) {
	m := newTestModel(t, Tiny, 7)
	ids := []int{10, 20, 30, 40, 50, 60}
	out, c, err := m.RunWithCache(ids)
	if err != nil {
		t.Fatal(err)
	}
	lens, err := c.LogitLens(nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(lens.Top) != Tiny.Layers+1 || len(lens.Top[0]) != len(ids) || len(lens.Top[0][0]) != 3 {
		t.Fatalf("lens of %d stages", len(lens.Top))
	}
	for pos := range ids {
		row := out.Row(0, pos)
		if got, want := lens.Top[Tiny.Layers][pos][0].ID, argmax(row); got != want {
			t.Errorf("position %d: the lens's last stage predicts %d, the model %d", pos, got, want)
		}
	}
	for _, pos := range []int{0, 3, -1} {
		tok := argmax(out.Row(0, (pos+len(ids))%len(ids)))
		a, err := c.DirectLogitAttribution(pos, tok)
		if err != nil {
			t.Fatal(err)
		}
		logit := float64(out.Row(0, a.Position)[tok])
		t.Logf("position %d token %d: logit %.5f, attribution's %.5f, sum of terms %.5f", a.Position, tok, logit, a.Logit, a.Sum())
		if math.Abs(a.Logit-logit) > 1e-4 || math.Abs(a.Sum()-logit) > 1e-4 {
			t.Errorf("position %d: logit %g, attribution's logit %g, terms sum to %g", a.Position, logit, a.Logit, a.Sum())
		}
	}
	// With hook_result kept, the heads' terms are the same.
	_, full, err := m.RunWithCache(ids, "**")
	if err != nil {
		t.Fatal(err)
	}
	a1, _ := c.DirectLogitAttribution(-1, 5)
	a2, _ := full.DirectLogitAttribution(-1, 5)
	for l := range a1.Heads.Values {
		for h := range a1.Heads.Values[l] {
			if d := math.Abs(a1.Heads.Values[l][h] - a2.Heads.Values[l][h]); d > 1e-5 {
				t.Errorf("layer %d head %d: from z %g, from hook_result %g", l, h, a1.Heads.Values[l][h], a2.Heads.Values[l][h])
			}
		}
	}
}
