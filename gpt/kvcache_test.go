package gpt

import (
	"errors"
	"math"
	"testing"
)

// firstBitDiff is the first index where a and b differ in their bits (NaN included), or -1.
func firstBitDiff(a, b []float32) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

// stepBoth steps g and its reference ref (the same prompt and policy over fresh caches) and
// reports where their tokens or logits differ by a single bit.
func stepBoth(t *testing.T, name string, g, ref *Generator) {
	t.Helper()
	s, err := g.Step()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	r, err := ref.Step()
	if err != nil {
		t.Fatalf("%s's reference: %v", name, err)
	}
	if i := firstBitDiff(s.Logits, r.Logits); i >= 0 || s.Token != r.Token {
		i = max(i, 0)
		t.Fatalf("%s, step %d: token %d, fresh cache %d; logit %d is %v, fresh cache %v (max |diff| %.3g)",
			name, s.N, s.Token, r.Token, i, s.Logits[i], r.Logits[i], logitDiff(s.Logits, r.Logits))
	}
}

// slabOf is the address of the first number of c's slab: two caches share memory when they
// have the same.
func slabOf(c *KVCache) any {
	if c.Precision == BF16 {
		return &c.data16[0]
	}
	return &c.data[0]
}

// poisonSpare fills every number of m's spare slab with NaN: a step that read a position
// the last run left there would make NaN logits.
func poisonSpare(m *Model) {
	for i := range m.spare.data {
		m.spare.data[i] = float32(math.NaN())
	}
	for i := range m.spare.data16 {
		m.spare.data16[i] = 0x7fc0 // bfloat16's NaN
	}
}

// A closed Generator's slab goes to the next Generator over the model, and to it alone:
// two Generators stepped in turn, one on the spare slab and one on a new one, give the
// logits of the same Generators over fresh caches bit for bit, and so does a third that
// takes the slab of one closed mid-run while the other goes on. The spare is filled with
// NaN before it is taken, so a step that read a position the last run left would show it.
func TestSpareCacheIsNeverShared(t *testing.T) {
	for _, p := range []Precision{FP32, BF16} {
		t.Run(p.String(), func(t *testing.T) {
			m := allocModel(t, p)
			fresh := m.Share() // the same weights, no spare: every cache its own
			V := m.Config.VocabSize
			gen := func(m *Model, seed uint64, n int, pol Policy) *Generator {
				g, err := NewGenerator(m, genPrompt(seed, n, V), pol, true)
				if err != nil {
					t.Fatal(err)
				}
				return g
			}
			sampled := Policy{Temperature: 1, TopK: 40, Seed: 9}

			first := gen(m, 1, 5, Greedy)
			if _, err := first.Steps(40); err != nil {
				t.Fatal(err)
			}
			kept := first.Cache()
			first.Close()
			if kept.Len() != 0 || kept.allocated() != 0 || first.Cache() != nil {
				t.Errorf("after Close the cache kept from the generator holds %d positions in %d bytes, Cache() = %v; want it emptied and nil", kept.Len(), kept.allocated(), first.Cache())
			}
			if _, err := first.Step(); !errors.Is(err, ErrClosed) {
				t.Errorf("Step after Close: %v, want ErrClosed", err)
			}
			spare := slabOf(&m.spare)
			poisonSpare(m)

			a, b := gen(m, 2, 9, Greedy), gen(m, 3, 3, sampled)
			ra, rb := gen(fresh, 2, 9, Greedy), gen(fresh, 3, 3, sampled)
			for range 30 {
				stepBoth(t, "a", a, ra)
				stepBoth(t, "b", b, rb)
			}
			if slabOf(a.Cache()) != spare {
				t.Errorf("a, the first generator to step after a Close, did not take the spare slab")
			}
			if slabOf(b.Cache()) == spare {
				t.Fatalf("a and b, both alive, share one slab")
			}

			a.Close() // a's slab (room for 64 positions) is the spare now
			spare = slabOf(&m.spare)
			poisonSpare(m)
			c, rc := gen(m, 4, 9, sampled), gen(fresh, 4, 9, sampled)
			c.Reserve(40) // 48 positions: a's slab has room
			stepBoth(t, "c", c, rc)
			if slabOf(c.Cache()) != spare {
				t.Errorf("c did not take the slab a gave back")
			}
			for range 60 { // c outgrows the 64 positions of a's slab, b goes on in its own
				stepBoth(t, "b", b, rb)
				stepBoth(t, "c", c, rc)
			}
			if slabOf(b.Cache()) == slabOf(c.Cache()) {
				t.Errorf("b and c, both alive, share one slab")
			}
		})
	}
}

// A run that reserves its length makes one slab for all of it, room for the prompt and the
// n-1 tokens forwarded after it, and never grows it; its logits are those of a run whose
// cache doubled as it filled, bit for bit. Room is capped at the window.
func TestReserveMakesOneSlab(t *testing.T) {
	cfg := noCollectionConfig
	for _, p := range []Precision{FP32, BF16} {
		t.Run(p.String(), func(t *testing.T) {
			m := newTestModel(t, cfg, 29)
			size := 4
			if p == BF16 {
				m, size = m.WithPrecision(BF16), 2
			}
			prompt := genPrompt(29, 9, cfg.VocabSize)
			g, err := NewGenerator(m, prompt, Greedy, true)
			if err != nil {
				t.Fatal(err)
			}
			ref, _ := NewGenerator(m, prompt, Greedy, true)
			const n = 256
			g.Reserve(n)
			stepBoth(t, "reserved", g, ref)
			want := CacheBytes(cfg, len(prompt)+n-1, size)
			if got := g.Cache().allocated(); got != want {
				t.Errorf("after Reserve(%d) and a %d-token prompt the cache allocated %d bytes, want %d (room for %d positions)", n, len(prompt), got, want, len(prompt)+n-1)
			}
			slab := slabOf(g.Cache())
			for range n - 1 {
				stepBoth(t, "reserved", g, ref)
			}
			if slabOf(g.Cache()) != slab || g.Cache().allocated() != want {
				t.Errorf("the reserved cache grew: %d bytes after %d steps, want its first slab of %d", g.Cache().allocated(), n, want)
			}
			if got := ref.Cache().allocated(); got != CacheBytes(cfg, 512, size) {
				t.Errorf("the reference's cache allocated %d bytes, want the 512 positions it doubles to", got)
			}

			capped, _ := NewGenerator(m, prompt, Greedy, true)
			capped.Window = 100
			capped.Reserve(1000)
			if _, err := capped.Step(); err != nil {
				t.Fatal(err)
			}
			if got := capped.Cache().allocated(); got != CacheBytes(cfg, 100, size) {
				t.Errorf("Reserve(1000) with a window of 100: %d bytes, want %d (room for the window)", got, CacheBytes(cfg, 100, size))
			}
		})
	}
}
