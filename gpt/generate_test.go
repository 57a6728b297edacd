package gpt

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// genModel is a small model of cfg with GPT-2's scaled init from seed.
func genModel(t testing.TB, cfg Config, seed uint64) *Model {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(seed, true)
	return m
}

// genPrompt is n ids below V, fixed by seed.
func genPrompt(seed uint64, n, V int) []int {
	rng := rand.New(rand.NewPCG(seed, 2))
	ids := make([]int, n)
	for i := range ids {
		ids[i] = rng.IntN(V)
	}
	return ids
}

// logitDiff is max |a-b|.
func logitDiff(a, b []float32) float64 {
	d, _, _ := logitStats(a, b)
	return d
}

// countCfg has a block long enough for 11 + 512 positions and is cheap to run.
var countCfg = Config{VocabSize: 32, BlockSize: 1024, Layers: 1, Heads: 1, Channels: 8}

// The study's position counts, measured: the Generator counts what it forwards, and it must
// be what Positions computes on paper. 11-token prompt, 256 new: 35,456 vs 266.
func TestGeneratorCountsPositions(t *testing.T) {
	m := genModel(t, countCfg, 1)
	prompt := genPrompt(1, 11, countCfg.VocabSize)
	for _, n := range []int{64, 256, 512} {
		var got [2]int
		for i, cached := range []bool{false, true} {
			g, err := NewGenerator(m, prompt, Greedy, cached)
			if err != nil {
				t.Fatal(err)
			}
			steps, err := g.Steps(n)
			if err != nil {
				t.Fatal(err)
			}
			last := steps[len(steps)-1]
			if last.Total != g.Positions() || len(steps) != n {
				t.Fatalf("%d steps: last step's total %d, generator's %d", len(steps), last.Total, g.Positions())
			}
			got[i] = g.Positions()
			if cached {
				if steps[0].Forwarded != 11 || steps[1].Forwarded != 1 || last.CacheLen != 11+n-1 {
					t.Errorf("cached: forwarded %d then %d, cache length %d at the end; want 11, 1, %d",
						steps[0].Forwarded, steps[1].Forwarded, last.CacheLen, 11+n-1)
				}
			}
		}
		wantU, wantC := Positions(11, n)
		if got[0] != wantU || got[1] != wantC {
			t.Errorf("%d new tokens: measured %d uncached, %d cached positions; computed %d, %d", n, got[0], got[1], wantU, wantC)
		}
		if n == 256 && (got[0] != 35_456 || got[1] != 266) {
			t.Errorf("11-token prompt, 256 new: %d vs %d positions, want 35,456 vs 266", got[0], got[1])
		}
	}
}

// The cache's bytes, measured from the allocation: 73,728 per position for GPT-2 Small in
// fp32, 75,497,472 for its 1,024 positions, and the Generator reports the same.
func TestCacheBytesMeasured(t *testing.T) {
	c := (&Model{Config: Small}).NewCache() // the cache needs only the config
	if c.Bytes() != CacheBytes(Small, 1024, 4) || c.Bytes() != 75_497_472 || c.Bytes()/c.Cap() != 73_728 {
		t.Errorf("Small cache allocated %s bytes (%s per position), want 75,497,472 (73,728)", Commas(c.Bytes()), Commas(c.Bytes()/c.Cap()))
	}
	m := genModel(t, countCfg, 1)
	g, _ := NewGenerator(m, []int{1, 2, 3}, Greedy, true)
	s, err := g.Step()
	if err != nil {
		t.Fatal(err)
	}
	if want := CacheBytes(countCfg, countCfg.BlockSize, 4); s.CacheBytes != want || s.CacheLen != 3 {
		t.Errorf("step reports cache %d positions, %d bytes; want 3, %d", s.CacheLen, s.CacheBytes, want)
	}
}

// cropCfg is a model small enough to generate three times its block size quickly.
var cropCfg = Config{VocabSize: 96, BlockSize: 32, Layers: 2, Heads: 4, Channels: 32}

// The cached loop against the uncached one, past the block size: with every crop policy,
// the same greedy tokens and logits within 1e-4 at every step, right after each crop too.
func TestCachedMatchesUncachedPastBlock(t *testing.T) {
	m := genModel(t, cropCfg, 3)
	prompt := genPrompt(3, 5, cropCfg.VocabSize)
	steps := 3 * cropCfg.BlockSize
	for _, keep := range []int{0, 16, 1} { // 0: the default, slide by one (Keep = Window)
		un, _ := NewGenerator(m, prompt, Greedy, false)
		ca, _ := NewGenerator(m, prompt, Greedy, true)
		un.Keep, ca.Keep = keep, keep
		crops, worst := 0, 0.0
		for i := 0; i < steps; i++ {
			su, err := un.Step()
			if err != nil {
				t.Fatal(err)
			}
			sc, err := ca.Step()
			if err != nil {
				t.Fatal(err)
			}
			d := logitDiff(su.Logits, sc.Logits)
			worst = math.Max(worst, d)
			if su.Token != sc.Token || d > 1e-4 || su.Context != sc.Context || su.Cropped != sc.Cropped {
				t.Fatalf("keep %d, step %d (cropped %v): tokens %d vs %d, contexts %d vs %d, max |Δlogit| %.3g (want ≤ 1e-4)",
					keep, su.N, sc.Cropped, su.Token, sc.Token, su.Context, sc.Context, d)
			}
			if sc.Context > cropCfg.BlockSize || sc.CacheLen != sc.Context {
				t.Fatalf("keep %d, step %d: context %d, cache %d; the window is %d", keep, sc.N, sc.Context, sc.CacheLen, cropCfg.BlockSize)
			}
			if sc.Cropped {
				crops++
				if sc.Forwarded != sc.Context {
					t.Errorf("keep %d, step %d: a crop re-prefilled %d positions, the window has %d", keep, sc.N, sc.Forwarded, sc.Context)
				}
			}
		}
		if crops == 0 {
			t.Errorf("keep %d: %d steps past a %d-token block and no crop", keep, steps, cropCfg.BlockSize)
		}
		t.Logf("keep %d: %d steps, %d crops, max |Δlogit| %.2g, positions %d uncached vs %d cached",
			ca.Keep, steps, crops, worst, un.Positions(), ca.Positions())
	}
}

// Temperature 0 is argmax at every step; the same seed samples the same 40 tokens, in both modes.
func TestGeneratorPolicy(t *testing.T) {
	m := genModel(t, cropCfg, 4)
	prompt := genPrompt(4, 6, cropCfg.VocabSize)
	g, _ := NewGenerator(m, prompt, Greedy, true)
	steps, err := g.Steps(20)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		if s.Token != argmax(s.Logits) || s.Prob != 1 {
			t.Fatalf("step %d at temperature 0 picked %d (p %v), argmax is %d", s.N, s.Token, s.Prob, argmax(s.Logits))
		}
	}
	p := Policy{Temperature: 1.5, TopK: 40, Seed: 1234}
	run := func(p Policy, cached bool) []int {
		g, err := NewGenerator(m, prompt, p, cached)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Steps(40); err != nil {
			t.Fatal(err)
		}
		return g.Generated()
	}
	a, b := run(p, true), run(p, true)
	if !slices.Equal(a, b) || len(a) != 40 {
		t.Errorf("same seed, two runs:\n%v\n%v", a, b)
	}
	if u := run(p, false); !slices.Equal(a, u) {
		t.Errorf("same seed, cached vs uncached:\n%v\n%v", a, u)
	}
	p.Seed++
	if c := run(p, true); slices.Equal(a, c) {
		t.Errorf("seeds 1234 and 1235 sampled the same 40 tokens %v", a)
	}
}

func TestGeneratorErrors(t *testing.T) {
	m := genModel(t, cropCfg, 5)
	if _, err := NewGenerator(m, []int{1}, Policy{Temperature: -0.5}, true); err == nil || !strings.Contains(err.Error(), "temperature") {
		t.Errorf("negative temperature: error %v", err)
	}
	if _, err := NewGenerator(m, nil, Greedy, true); err == nil {
		t.Error("empty prompt: no error")
	}
	g, _ := NewGenerator(m, []int{1}, Greedy, true)
	g.Window = 100
	if _, err := g.Step(); err == nil || !strings.Contains(err.Error(), "block size 32") {
		t.Errorf("window past the block: error %v", err)
	}
	g, _ = NewGenerator(m, []int{1}, Greedy, true)
	g.Keep = 40
	if _, err := g.Step(); err == nil || !strings.Contains(err.Error(), "keep 40") {
		t.Errorf("keep past the window: error %v", err)
	}
	g, _ = NewGenerator(m, []int{1}, Greedy, false)
	g.Policy.TopP = 2 // changed after NewGenerator: checked at the first step
	if _, err := g.Step(); err == nil || !strings.Contains(err.Error(), "top-p") {
		t.Errorf("top-p 2: error %v", err)
	}
	g, _ = NewGenerator(m, []int{1, 2}, Greedy, true)
	s, _ := g.Step()
	g.EndID = s.Token
	g2, _ := NewGenerator(m, []int{1, 2}, Greedy, true)
	g2.EndID = s.Token
	steps, err := g2.Steps(10)
	if err != nil || len(steps) != 1 || !steps[0].End || !g2.Stopped() {
		t.Errorf("end token %d drawn first: %d steps, err %v", s.Token, len(steps), err)
	}
	if _, err := g2.Step(); !errors.Is(err, ErrStopped) {
		t.Errorf("Step after the end token: %v, want ErrStopped", err)
	}
}

func TestGeneratorHTML(t *testing.T) {
	m := genModel(t, cropCfg, 6)
	g, _ := NewGenerator(m, []int{1, 2, 3}, NanoGPT, true)
	if _, err := g.Steps(3); err != nil {
		t.Fatal(err)
	}
	h := g.HTML()
	for _, want := range []string{NanoGPT.String(), "cached, window 32", "<td>3</td>"} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q:\n%s", want, h)
		}
	}
	if s := g.String(); !strings.HasPrefix(s, "["+NanoGPT.String()) {
		t.Errorf("String() = %q, want the policy first", s)
	}
	for _, s := range g.History() {
		if s.Logits != nil {
			t.Errorf("step %d kept its logits in the history without KeepLogits", s.N)
		}
	}
}

func TestStepString(t *testing.T) {
	m := genModel(t, cropCfg, 14)
	g, _ := NewGenerator(m, []int{1, 2, 3}, Greedy, true)
	s, err := g.Step()
	if err != nil {
		t.Fatal(err)
	}
	want := "step 1: token " + strconv.Itoa(s.Token) + " (p 1.000"
	if got := s.String(); !strings.HasPrefix(got, want) || !strings.Contains(got, "forwarded 3, total 3; cache 3 positions, 16.4 kB") {
		t.Errorf("String() = %q, want it to start %q", got, want)
	}
}

// SetPolicy changes the policy between steps: the text so far stays, the next token follows
// the new policy, and a policy that does not validate changes nothing.
func TestGeneratorSetPolicy(t *testing.T) {
	m, err := New(Tiny)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(5, true)
	g, err := NewGenerator(m, []int{1, 2, 3}, Policy{Temperature: 1.5, Seed: 3}, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Steps(4); err != nil {
		t.Fatal(err)
	}
	before := g.Generated()
	if err := g.SetPolicy(Policy{Temperature: -1}); err == nil {
		t.Error("a negative temperature was accepted")
	}
	if g.Policy.Temperature != 1.5 {
		t.Errorf("a refused policy changed the generator's: %v", g.Policy)
	}
	if err := g.SetPolicy(Greedy); err != nil {
		t.Fatal(err)
	}
	st, err := g.Step()
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Generated(); len(got) != 5 || !slices.Equal(got[:4], before) {
		t.Errorf("generated %v after %v", got, before)
	}
	if st.Token != argmax(st.Logits) {
		t.Errorf("greedy step picked %d, argmax is %d", st.Token, argmax(st.Logits))
	}
}
