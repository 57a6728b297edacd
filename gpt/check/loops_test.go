package check_test

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/gpt/check"
)

// cachedLoopWith is a student's cached greedy loop: feed gives the logits of the next step
// from the cache, the context so far and the token just chosen; forwardLast forwards the
// last token too.
func cachedLoopWith(feed func(m *gpt.Model, c *gpt.KVCache, ids []int, token int) ([]float32, *gpt.KVCache), forwardLast bool) func(*gpt.Model, []int, int) ([][]float32, *gpt.KVCache) {
	return func(m *gpt.Model, prompt []int, steps int) ([][]float32, *gpt.KVCache) {
		c := m.NewCache()
		logits, err := m.ForwardCached(c, prompt)
		if err != nil {
			panic(err)
		}
		ids := append([]int(nil), prompt...)
		var out [][]float32
		for i := 0; i < steps; i++ {
			out = append(out, logits)
			if i == steps-1 && !forwardLast {
				break
			}
			best := 0
			for v, l := range logits {
				if l > logits[best] {
					best = v
				}
			}
			ids = append(ids, best)
			logits, c = feed(m, c, ids, best)
		}
		return out, c
	}
}

func must(l []float32, err error) []float32 {
	if err != nil {
		panic(err)
	}
	return l
}

var (
	feedToken = func(m *gpt.Model, c *gpt.KVCache, _ []int, token int) ([]float32, *gpt.KVCache) {
		return must(m.ForwardCached(c, []int{token})), c
	}
	feedFresh = func(m *gpt.Model, _ *gpt.KVCache, _ []int, token int) ([]float32, *gpt.KVCache) {
		c := m.NewCache()
		return must(m.ForwardCached(c, []int{token})), c
	}
	feedContext = func(m *gpt.Model, c *gpt.KVCache, ids []int, _ int) ([]float32, *gpt.KVCache) {
		return must(m.ForwardCached(c, ids)), c
	}
)

func TestCachedLoop(t *testing.T) {
	cl := func(f func(*gpt.Model, []int, int) ([][]float32, *gpt.KVCache)) func() *check.Verdict {
		return func() *check.Verdict { return check.CachedLoop(f) }
	}
	testVerdicts(t, []verdictCase{
		{"right", cl(cachedLoopWith(feedToken, false)), ""},
		{"fresh cache", cl(cachedLoopWith(feedFresh, false)), "a fresh cache for each new token"},
		{"context again", cl(cachedLoopWith(feedContext, false)), "the whole context forwarded again"},
	})
	for _, c := range []struct {
		name string
		f    func(*gpt.Model, []int, int) ([][]float32, *gpt.KVCache)
		says string
	}{
		{"last token forwarded", cachedLoopWith(feedToken, true), "one more than needed"},
		{"no cache", func(m *gpt.Model, prompt []int, steps int) ([][]float32, *gpt.KVCache) {
			ids := append([]int(nil), prompt...)
			var out [][]float32
			for i := 0; i < steps; i++ {
				l := must(m.NextLogits(ids))
				out = append(out, l)
				best := 0
				for v, x := range l {
					if x > l[best] {
						best = v
					}
				}
				ids = append(ids, best)
			}
			return out, m.NewCache()
		}, "your cache holds 0 positions"},
		// Two loops whose logits and cache are right, told apart by the model's tally.
		{"a fresh cache forwarding the whole context", cachedLoopWith(func(m *gpt.Model, _ *gpt.KVCache, ids []int, _ int) ([]float32, *gpt.KVCache) {
			c := m.NewCache()
			return must(m.ForwardCached(c, ids)), c
		}, false), "a fresh cache at every step, the whole context forwarded again"},
		{"the logits from NextLogits", cachedLoopWith(func(m *gpt.Model, c *gpt.KVCache, ids []int, token int) ([]float32, *gpt.KVCache) {
			must(m.ForwardCached(c, []int{token}))
			return must(m.NextLogits(ids)), c
		}, false), "the logits taken from NextLogits"},
		{"nil cache", func(m *gpt.Model, prompt []int, steps int) ([][]float32, *gpt.KVCache) {
			out, _ := cachedLoopWith(feedToken, false)(m, prompt, steps)
			return out, nil
		}, "returned no cache"},
		{"blank", func(*gpt.Model, []int, int) ([][]float32, *gpt.KVCache) { return nil, nil }, "the shape is wrong: yours has no rows"},
		{"panics", func(*gpt.Model, []int, int) ([][]float32, *gpt.KVCache) { panic("boom") }, "your function panicked: boom"},
	} {
		v := check.CachedLoop(c.f)
		t.Logf("%s: %v", c.name, v)
		if v.OK || !strings.Contains(v.String(), c.says) || !strings.HasPrefix(v.String(), "not yet: ") {
			t.Errorf("%s: verdict %v; want a problem saying %q", c.name, v, c.says)
		}
	}
}

func TestBF16(t *testing.T) {
	bits := func(f func(b uint32) uint32) func() *check.Verdict {
		return func() *check.Verdict {
			return check.BF16(func(x float32) float32 { return math.Float32frombits(f(math.Float32bits(x))) })
		}
	}
	testVerdicts(t, []verdictCase{
		{"right", bits(func(b uint32) uint32 {
			if b&0x7fffffff > 0x7f800000 {
				return b | 0x400000
			}
			return (b + 0x7fff + (b>>16)&1) &^ 0xffff
		}), ""},
		{"library", func() *check.Verdict { return check.BF16(gpt.RoundBF16) }, ""},
		{"truncation", bits(func(b uint32) uint32 { return b &^ 0xffff }), "truncation"},
		{"half up", bits(func(b uint32) uint32 {
			if b&0x7fffffff > 0x7f800000 {
				return b
			}
			return (b + 0x8000) &^ 0xffff
		}), "ties away from zero"},
		{"no NaN case", bits(func(b uint32) uint32 { return (b + 0x7fff + (b>>16)&1) &^ 0xffff }), "without a case for NaN"},
	})
	v := check.BF16(func(x float32) float32 { return x })
	if v.OK || !strings.Contains(v.Problem, "differs first at") {
		t.Errorf("no rounding at all: %v", v)
	}
}

// samplerWith is a student's sampler (the one of notebook 06), with the temperature
// applied after the softmax when tAfter, top-p stopping one token early when stopBefore,
// and top-k keeping k+1 tokens when kPlusOne.
func samplerWith(tAfter, stopBefore, kPlusOne bool) func([]float32, gpt.Policy) func(*rand.Rand) int {
	return func(logits []float32, p gpt.Policy) func(*rand.Rand) int {
		best := 0
		for v, l := range logits {
			if l > logits[best] {
				best = v
			}
		}
		if p.Temperature == 0 {
			return func(*rand.Rand) int { return best }
		}
		T := p.Temperature
		if tAfter {
			T = 1
		}
		probs := make([]float64, len(logits))
		sum := 0.0
		for v, l := range logits {
			probs[v] = math.Exp((float64(l) - float64(logits[best])) / T)
			sum += probs[v]
		}
		for v := range probs {
			probs[v] /= sum
			if tAfter {
				probs[v] /= p.Temperature
			}
		}
		kept := make([]int, len(logits))
		for v := range kept {
			kept[v] = v
		}
		if p.TopK > 0 || p.TopP > 0 && p.TopP < 1 {
			sort.SliceStable(kept, func(a, b int) bool { return logits[kept[a]] > logits[kept[b]] })
			if k := p.TopK; k > 0 && k < len(kept) {
				if kPlusOne {
					k++
				}
				kept = kept[:k]
			}
			if p.TopP > 0 && p.TopP < 1 {
				mass, cum := 0.0, 0.0
				for _, v := range kept {
					mass += probs[v]
				}
				for i, v := range kept {
					cum += probs[v]
					if cum >= p.TopP*mass {
						if stopBefore && i > 0 {
							i--
						}
						kept = kept[:i+1]
						break
					}
				}
			}
		}
		mass := 0.0
		for _, v := range kept {
			mass += probs[v]
		}
		return func(rng *rand.Rand) int {
			u, cum, last := rng.Float64()*mass, 0.0, kept[0]
			for _, v := range kept {
				if probs[v] == 0 {
					continue
				}
				last = v
				if cum += probs[v]; u < cum {
					break
				}
			}
			return last
		}
	}
}

func TestSampler(t *testing.T) {
	sm := func(f func([]float32, gpt.Policy) func(*rand.Rand) int) func() *check.Verdict {
		return func() *check.Verdict { return check.Sampler(f) }
	}
	testVerdicts(t, []verdictCase{
		{"right", sm(samplerWith(false, false, false)), ""},
		{"temperature after the softmax", sm(samplerWith(true, false, false)), "the temperature ignored, or applied after the softmax"},
		{"top-p one short", sm(samplerWith(false, true, false)), "top-p stopping one token early"},
		{"top-k keeping k+1", sm(samplerWith(false, false, true)), "top-k keeping k+1 tokens"},
	})
	v := check.Sampler(func([]float32, gpt.Policy) func(*rand.Rand) int { return func(*rand.Rand) int { return 0 } })
	if v.OK || !strings.Contains(v.Problem, "yours is token 0") || !strings.Contains(v.Problem, "the library's") {
		t.Errorf("always token 0: %v", v)
	}
}
