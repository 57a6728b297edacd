package check

import (
	"fmt"

	"github.com/gptnotes/gptnotes/gpt"
)

// CachedLoop checks a student's cached greedy loop. f(m, prompt, steps) pushes the prompt
// through m into a fresh cache (the prefill), then feeds back the argmax of each step's
// logits one token at a time, and returns every step's logits (steps rows of V) and the
// cache. It is right when each step's logits match a forward of the whole context so far
// without a cache (m.NextLogits: the reference the study checks a cache against) to 1e-4,
// the cache holds exactly the positions forwarded: the prompt once and each new token
// but the last, whose logits are never needed (gpt.Positions counts them the same way),
// and the model's gpt.Tally shows that work and no more: one cache made, and prompt +
// steps − 1 positions forwarded, all through that cache. The tally catches two loops
// whose logits and cache come out right: one that makes a fresh cache and forwards the
// whole context at every step, and one that fills the cache but takes each step's logits
// from NextLogits. f gets a model of its own (m.Share()), so the tally counts its work alone.
//
//	v := check.CachedLoop(func(m *gpt.Model, prompt []int, steps int) ([][]float32, *gpt.KVCache) { … })
func CachedLoop(f func(m *gpt.Model, prompt []int, steps int) ([][]float32, *gpt.KVCache)) *Verdict {
	const op = "a cached greedy loop"
	p, err := draw(op)
	if err != nil {
		return failed(op, err)
	}
	steps := 6 + p.rng.IntN(7)
	v := &Verdict{Op: op, Case: fmt.Sprintf("%d steps after %s", steps, p.tokens()), Tol: 1e-4, Ref: "a full forward's"}
	model, err := uncachedLoop(p.m, p.ids, steps)
	if err != nil {
		return failed(op, err)
	}
	var yours grid
	var cache *gpt.KVCache
	m := p.m.Share() // f's own, so its Tally counts f's work alone
	if msg := call(func() { yours, cache = f(m, append([]int(nil), p.ids...), steps) }); msg != "" {
		v.Problem = "your function panicked: " + msg
		return v
	}
	where := func(r, c int) string {
		return fmt.Sprintf("step %d, token %d (%q)", r, c, p.tok.Decode([]int{c}))
	}
	v.compare(yours, model, where, "one row of V logits per step")
	if !v.OK {
		v.recognise(yours, model, cachedLoopMistakes(p.m, p.ids, steps))
		return v
	}
	want := len(p.ids) + steps - 1
	switch {
	case cache == nil:
		v.OK, v.Problem = false, "the logits are right, but your function returned no cache (nil): return the cache the loop filled."
	case cache.Len() == 0:
		v.OK, v.Problem = false, fmt.Sprintf("the logits are right, but your cache holds 0 positions: they came from forwards of the whole context, not from the cache. A cached loop forwards the prompt once (%d positions), then one token per step.", len(p.ids))
	case cache.Len() == want+1:
		v.OK, v.Problem = false, fmt.Sprintf("the logits are right, but your cache holds %d positions, one more than needed: the last step's token was forwarded too, and its logits are never used. The prompt's %d and the %d tokens fed back make %d.", cache.Len(), len(p.ids), steps-1, want)
	case cache.Len() != want:
		v.OK, v.Problem = false, fmt.Sprintf("the logits are right, but your cache holds %d positions; the prompt's %d and the %d tokens fed back make %d.", cache.Len(), len(p.ids), steps-1, want)
	default:
		v.tallied(m.Tally(), len(p.ids), steps)
	}
	return v
}

// tallied fails a verdict whose logits and cache are right when the model's tally shows
// they were not made by one cache: more than one cache made, or positions forwarded
// outside a cache (NextLogits, Forward), or more positions than prompt + steps − 1.
func (v *Verdict) tallied(t gpt.Tally, prompt, steps int) {
	want := prompt + steps - 1
	caches := fmt.Sprintf("%d caches", t.Caches)
	if t.Caches == 1 {
		caches = "1 cache"
	}
	work := fmt.Sprintf("your loop made %s and forwarded %d positions, %d of them through a cache; a cached loop makes 1 and forwards %d (the prompt's %d once, then the %d tokens fed back), all through that cache.",
		caches, t.Positions, t.Cached, want, prompt, steps-1)
	switch {
	case t.Caches > 1:
		v.OK, v.Problem = false, "the logits and the cache are right, but "+work
		v.Mistake = "a fresh cache at every step, the whole context forwarded again into it: the logits come out right, but each step recomputes every position, the work the cache is there to save. Keep one cache and forward only the new token."
	case t.Positions > t.Cached:
		v.OK, v.Problem = false, "the logits and the cache are right, but "+work
		v.Mistake = "the logits taken from NextLogits (a forward of the whole context) while the cache is filled beside it: the cache is never read. Take each step's logits from ForwardCached."
	case t.Caches != 1 || t.Positions != want:
		v.OK, v.Problem = false, "the logits and the cache are right, but "+work
	}
}

// uncachedLoop is the reference: each step's logits from a forward of the whole context,
// and the argmax fed back.
func uncachedLoop(m *gpt.Model, prompt []int, steps int) (grid, error) {
	ids := append([]int(nil), prompt...)
	var out grid
	for i := 0; i < steps; i++ {
		logits, err := m.NextLogits(ids)
		if err != nil {
			return nil, fmt.Errorf("check: cached loop: the reference forward: %w", err)
		}
		out = append(out, logits)
		ids = append(ids, argmax(logits))
	}
	return out, nil
}

// cachedLoopMistakes are the wrong cached loops a student's is compared with, each run on
// the case's prompt. A loop that fails (it outgrows the cache) is left out.
func cachedLoopMistakes(m *gpt.Model, prompt []int, steps int) []mistake {
	loop := func(next func(c *gpt.KVCache, ids []int, token int) (*gpt.KVCache, []float32, error)) grid {
		c := m.NewCache()
		logits, err := m.ForwardCached(c, prompt)
		if err != nil {
			return nil
		}
		ids := append([]int(nil), prompt...)
		out := grid{logits}
		for i := 1; i < steps; i++ {
			token := argmax(logits)
			ids = append(ids, token)
			if c, logits, err = next(c, ids, token); err != nil {
				return nil
			}
			out = append(out, logits)
		}
		return out
	}
	var ms []mistake
	add := func(says string, g grid) {
		if g != nil {
			ms = append(ms, mistake{says: says, out: g})
		}
	}
	add("a fresh cache for each new token: the token is forwarded at position 0 with nothing before it, so from step 1 on the model sees one token of context.",
		loop(func(_ *gpt.KVCache, _ []int, token int) (*gpt.KVCache, []float32, error) {
			c := m.NewCache()
			l, err := m.ForwardCached(c, []int{token})
			return c, l, err
		}))
	add("the whole context forwarded again into the same cache at each step: the cache then holds the prompt twice, and every position after the first pass sits where it does not belong.",
		loop(func(c *gpt.KVCache, ids []int, _ int) (*gpt.KVCache, []float32, error) {
			l, err := m.ForwardCached(c, ids)
			return c, l, err
		}))
	add("the prompt's logits used at every step: the token fed back never reaches the model.",
		loop(func(c *gpt.KVCache, _ []int, _ int) (*gpt.KVCache, []float32, error) {
			l, err := m.NextLogits(prompt)
			return c, l, err
		}))
	return ms
}

// argmax is the library's greedy choice (gpt.Greedy): the lowest index of the largest
// logit. The logits here are the model's own, so they are finite and Sample cannot fail.
func argmax(logits []float32) int {
	c, err := greedySampler.Sample(logits)
	if err != nil {
		panic(err)
	}
	return c.ID
}

// greedySampler draws nothing at random: at temperature 0 the seed is not used.
var greedySampler, _ = gpt.NewSampler(gpt.Greedy)
