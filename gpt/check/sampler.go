package check

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/gptnotes/gptnotes/gpt"
)

// Sampler checks a student's sampler against the library's, draw for draw. f(logits, p)
// prepares the distribution of one row of logits under the policy p and returns a function
// that draws one token per call from the random stream it is given; the checker gives it
// gpt.NewRand(p.Seed), the stream the library's gpt.Sampler draws from, so a sampler that
// follows the policy's steps (gpt.Policy) and draws as the library does (gpt.NewRand) gives
// the same tokens. Each of nine policies — the temperature alone at 0.5, 1 and 1.7, top-k
// at 20, and at 3 with temperature 2 (flat enough that a fourth token kept is drawn), top-p
// at 0.8 and 0.5 (at the lowest temperature from 1 up where p = 0.5 keeps four tokens),
// both, and temperature 0 — draws 100 tokens after the case's prompt.
//
//	v := check.Sampler(func(logits []float32, p gpt.Policy) func(rng *rand.Rand) int { … })
func Sampler(f func(logits []float32, p gpt.Policy) func(rng *rand.Rand) int) *Verdict {
	const op = "a seeded sampler"
	pk, err := draw(op)
	if err != nil {
		return failed(op, err)
	}
	logits, err := pk.m.NextLogits(pk.ids)
	if err != nil {
		return failed(op, err)
	}
	seed := 1 + pk.rng.Uint64N(1000)
	// Top-p is checked at a temperature where its set holds a few tokens, so a cut one token
	// off changes the draws even after a prompt the model is sure of.
	wide := 1.0
	for _, T := range []float64{1, 1.5, 2, 3, 5} {
		wide = T
		if n, _ := gpt.NucleusSize(logits, T, 0.5); n >= 4 {
			break
		}
	}
	policies := []gpt.Policy{
		{Temperature: 0.5, Seed: seed},
		{Temperature: 1, Seed: seed + 1},
		{Temperature: 1.7, Seed: seed + 2},
		{Temperature: 1, TopK: 20, Seed: seed + 3},
		{Temperature: 2, TopK: 3, Seed: seed + 8}, // a flat distribution over few tokens: a (k+1)th token kept is drawn often
		{Temperature: wide, TopP: 0.8, Seed: seed + 4},
		{Temperature: wide, TopP: 0.5, Seed: seed + 5},
		{Temperature: 1.2, TopK: 50, TopP: 0.9, Seed: seed + 6},
		{Temperature: 0, Seed: seed + 7},
	}
	const draws = 100
	v := &Verdict{Op: op, Case: fmt.Sprintf("%d draws under each of %d policies after %s", draws, len(policies), pk.tokens()), Tol: 0, Ref: "the library's gpt.Sampler"}
	model := make(grid, len(policies))
	for i, p := range policies {
		s, err := gpt.NewSampler(p)
		if err != nil {
			return failed(op, err)
		}
		for d := 0; d < draws; d++ {
			c, err := s.Sample(logits)
			if err != nil {
				return failed(op, err)
			}
			model[i] = append(model[i], float32(c.ID))
		}
	}
	yours := make(grid, len(policies))
	if msg := eachRow(len(policies), "policy", func(i int) {
		yours[i] = drawAll(f(append([]float32(nil), logits...), policies[i]), policies[i].Seed, draws)
	}); msg != "" {
		v.Problem = msg
		return v
	}
	where := func(r, c int) string { return fmt.Sprintf("draw %d with %v", c, policies[r]) }
	v.compare(yours, model, where, "one row of draws per policy")
	if v.OK {
		return v
	}
	// Say it in tokens: the row and column of the first difference, and the two tokens.
	for r := range model {
		if len(yours[r]) != len(model[r]) {
			break
		}
		for c := range model[r] {
			if yours[r][c] != model[r][c] {
				y, m := int(yours[r][c]), int(model[r][c])
				v.Problem = fmt.Sprintf("draw %d with %v: yours is token %d (%q), the library's %d (%q).",
					c, policies[r], y, decode(pk, y), m, decode(pk, m))
				if r > 0 {
					v.Problem += fmt.Sprintf(" The policies before it (%v …) drew the same tokens.", policies[0])
				}
				v.recognise(yours, model, samplerMistakes(logits, policies, draws))
				return v
			}
		}
	}
	v.recognise(yours, model, samplerMistakes(logits, policies, draws))
	return v
}

// decode is a token's text, or "" for an id outside the vocabulary.
func decode(p *pick, id int) string {
	if id < 0 || id >= p.m.Config.VocabSize {
		return ""
	}
	return p.tok.Decode([]int{id})
}

// drawAll draws n tokens from a prepared sampler with the library's stream for seed.
func drawAll(drawOne func(rng *rand.Rand) int, seed uint64, n int) []float32 {
	rng := gpt.NewRand(seed)
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(drawOne(rng))
	}
	return out
}

// sampling is a sampler written out the way gpt.Policy describes it, with knobs that turn
// it into the mistakes students make. With every knob off it draws what gpt.Sampler draws.
type sampling struct {
	ignoreT      bool // the temperature ignored (or applied after the softmax, the same once renormalised)
	ignoreK      bool // top-k ignored
	kPlusOne     bool // top-k keeping k+1 tokens (kept[:k+1], or a ≤ where < belongs)
	pOfAll       bool // top-p measured against the whole vocabulary's mass, not what top-k kept
	pStopsBefore bool // top-p keeps the tokens before the one that reaches p, not that one too
	noRenorm     bool // u drawn in [0, 1), not in [0, mass of the kept tokens)
	idOrder      bool // the kept tokens walked in id order, not most probable first
}

func (s sampling) prepare(logits []float32, p gpt.Policy) func(rng *rand.Rand) int {
	best := argmax(logits)
	if p.Temperature == 0 {
		return func(*rand.Rand) int { return best }
	}
	T := p.Temperature
	if s.ignoreT {
		T = 1
	}
	probs := make([]float64, len(logits))
	sum := 0.0
	for i, l := range logits {
		probs[i] = math.Exp((float64(l) - float64(logits[best])) / T)
		sum += probs[i]
	}
	for i := range probs {
		probs[i] /= sum
	}
	kept := make([]int, len(logits))
	for i := range kept {
		kept[i] = i
	}
	k, topP := p.TopK, p.TopP
	if s.ignoreK {
		k = 0
	}
	if s.kPlusOne && k > 0 {
		k++
	}
	if k > 0 || topP > 0 && topP < 1 {
		sort.SliceStable(kept, func(a, b int) bool { return logits[kept[a]] > logits[kept[b]] })
		if k > 0 && k < len(kept) {
			kept = kept[:k]
		}
		if topP > 0 && topP < 1 {
			mass := 1.0
			if !s.pOfAll {
				mass = 0
				for _, id := range kept {
					mass += probs[id]
				}
			}
			cum := 0.0
			for i, id := range kept {
				cum += probs[id]
				if cum >= topP*mass {
					if s.pStopsBefore && i > 0 {
						i--
					}
					kept = kept[:i+1]
					break
				}
			}
		}
		if s.idOrder {
			sort.Ints(kept)
		}
	}
	mass := 0.0
	for _, id := range kept {
		mass += probs[id]
	}
	if s.noRenorm {
		mass = 1
	}
	return func(rng *rand.Rand) int {
		u, cum, last := rng.Float64()*mass, 0.0, kept[0]
		for _, id := range kept {
			if probs[id] == 0 {
				continue
			}
			last = id
			if cum += probs[id]; u < cum {
				break
			}
		}
		return last
	}
}

// samplerWrongWays are the mistakes a sampler is compared with.
var samplerWrongWays = []struct {
	says string
	s    sampling
}{
	{"the temperature ignored, or applied after the softmax (dividing the probabilities by T changes nothing once they are renormalised): divide the logits by T before the softmax.", sampling{ignoreT: true}},
	{"top-k ignored: only the k most probable tokens may be drawn.", sampling{ignoreK: true}},
	{"top-k keeping k+1 tokens (an off-by-one in the cut): only the k most probable tokens may be drawn, kept[:k].", sampling{kPlusOne: true}},
	{"top-p measured against the whole vocabulary's mass: after top-k, p is a share of what top-k kept.", sampling{pOfAll: true}},
	{"top-p stopping one token early: the set keeps the token whose probability makes the sum reach p.", sampling{pStopsBefore: true}},
	{"the draw not renormalised: u is drawn from [0, 1) but the kept tokens hold less than 1, so the last kept token is drawn too often. Multiply u by the kept tokens' mass.", sampling{noRenorm: true}},
	{"the kept tokens walked in id order: the library walks them most probable first (gpt.NewRand says how it draws).", sampling{idOrder: true}},
}

func samplerMistakes(logits []float32, policies []gpt.Policy, draws int) []mistake {
	var ms []mistake
	for _, w := range samplerWrongWays {
		g := make(grid, len(policies))
		for i, p := range policies {
			g[i] = drawAll(w.s.prepare(logits, p), p.Seed, draws)
		}
		ms = append(ms, mistake{says: w.says, out: g})
	}
	return ms
}
