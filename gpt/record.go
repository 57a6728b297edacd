package gpt

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Generation that records what it computed. A cached Generator with Record set keeps, in
// each step's hooked forward, the activations Record names for the positions that step
// forwards: (1, n, …) for the prefill's n positions or a step's one, and (1, NH, n, pos0+n)
// for the scores and the pattern, the new queries' rows over every key cached so far.
// hook_k and hook_v of a step are the keys and values it appends to the KV cache. Recorded
// stitches them at their absolute positions into one ActivationCache over every position
// forwarded, the shapes RunWithCache gives (the scores' and the pattern's keys after a
// query's own are −Inf and 0, the mask's values), so that stitched over N steps it equals an
// uncached RunWithCache over the same tokens (TestRecordEqualsRunWithCache).

// recordedStep is what one cached step kept: its first position and its activations.
type recordedStep struct {
	pos0  int
	cache *ActivationCache
}

// record adds a cached step's activations, starting afresh at a re-prefill.
func (g *Generator) record(pos0 int, c *ActivationCache) {
	if pos0 == 0 {
		g.recorded = g.recorded[:0]
	}
	g.recorded = append(g.recorded, recordedStep{pos0, c})
}

// Recorded returns the activations Record named, of every position the cached run has
// forwarded since the window last moved: (1, T, …) over those T positions, and (1, NH, T,
// T) for the scores and the pattern. Its IDs are the tokens forwarded.
func (g *Generator) Recorded() (*ActivationCache, error) {
	if len(g.Record) == 0 || !g.Cached || g.Model == nil {
		return nil, fmt.Errorf("gpt: generator: nothing recorded: set Record (e.g. []string{\"**\"}) on a cached Generator with a Model")
	}
	if len(g.recorded) == 0 {
		return nil, fmt.Errorf("gpt: generator: nothing recorded yet: call Step first")
	}
	cfg := g.Model.Config
	var ids []int
	for _, s := range g.recorded {
		ids = append(ids, s.cache.IDs[0]...)
	}
	T := len(ids)
	out := &ActivationCache{Config: cfg, B: 1, T: T, IDs: [][]int{ids}, model: g.Model, acts: map[string]*Activation{}}
	for _, name := range g.recorded[0].cache.names {
		p, err := LookupHook(cfg, name)
		if err != nil {
			return nil, err
		}
		a := &Activation{Name: name, Shape: p.Shape(cfg, 1, T)}
		a.Data = make([]float32, product(a.Shape))
		rows := len(p.Dims) == 4 && p.Dims[3] == "T" // (1, NH, T, T): a query's row over the keys
		if rows && strings.HasSuffix(name, "hook_attn_scores") {
			for i := range a.Data {
				a.Data[i] = float32(math.Inf(-1))
			}
		}
		for _, s := range g.recorded {
			step := s.cache.acts[name]
			n := s.cache.T
			if !rows { // (1, n, …): n rows of one position's values, after pos0 rows
				per := len(step.Data) / n
				copy(a.Data[s.pos0*per:], step.Data)
				continue
			}
			K := s.pos0 + n
			for h := 0; h < a.Shape[1]; h++ {
				for t := 0; t < n; t++ {
					copy(a.Data[(h*T+s.pos0+t)*T:][:K], step.Data[(h*n+t)*K:][:K])
				}
			}
		}
		out.add(a)
	}
	if !slices.Equal(out.names, g.recorded[len(g.recorded)-1].cache.names) {
		return nil, fmt.Errorf("gpt: generator: the steps recorded different names")
	}
	return out, nil
}
