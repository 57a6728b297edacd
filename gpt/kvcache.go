package gpt

import "fmt"

// KVCache holds the keys and values of every position a sequence has pushed through the
// model, so that the next token attends to them without recomputing them. It is one
// allocation of 2·L·BlockSize·C float32: for GPT-2 small 2·12·768 = 18,432 numbers,
// ≈74 kB per position and ≈75 MB for 1,024 positions.
type KVCache struct {
	Config Config
	data   []float32 // (L, 2, BlockSize, C): per layer, its keys then its values
	n      int       // positions held
}

// NewCache allocates an empty cache for one sequence of up to BlockSize positions.
func (m *Model) NewCache() *KVCache {
	c := m.Config
	return &KVCache{Config: c, data: make([]float32, 2*c.Layers*c.BlockSize*c.Channels)}
}

// Len is the number of positions in the cache.
func (c *KVCache) Len() int { return c.n }

// Cap is the number of positions the cache can hold, the block size.
func (c *KVCache) Cap() int { return c.Config.BlockSize }

// Bytes is the memory the cache allocated: 4·2·L·BlockSize·C.
func (c *KVCache) Bytes() int { return 4 * len(c.data) }

// Reset empties the cache, keeping its memory.
func (c *KVCache) Reset() { c.n = 0 }

// Layer returns the keys and values of layer l, each (Len, C) with the heads side by side
// (head h in channels h·HS … (h+1)·HS-1). They are views: they change as the cache grows.
func (c *KVCache) Layer(l int) (k, v []float32) {
	k, v = c.full(l)
	C := c.Config.Channels
	return k[: c.n*C : c.n*C], v[: c.n*C : c.n*C]
}

// full returns layer l's key and value slabs, (BlockSize, C) each.
func (c *KVCache) full(l int) (k, v []float32) {
	n := c.Config.BlockSize * c.Config.Channels
	k = c.data[2*l*n : (2*l+1)*n]
	v = c.data[(2*l+1)*n : (2*l+2)*n]
	return k, v
}

// ForwardCached pushes ids through the model as the next positions of the sequence in c —
// a whole prompt (prefill) or one generated token — appending their keys and values to c,
// and returns the logits (V) of the last of them. Only the new positions are computed.
// It is an error to push past c.Cap(), or an id outside the vocabulary.
func (m *Model) ForwardCached(c *KVCache, ids []int) ([]float32, error) {
	cfg := m.Config
	C, V, NH := cfg.Channels, cfg.VocabSize, cfg.Heads
	n, pos0 := len(ids), c.n
	switch {
	case c.Config != cfg:
		return nil, fmt.Errorf("gpt: forward cached: cache made for %v, model is %v", c.Config, cfg)
	case n == 0:
		return nil, fmt.Errorf("gpt: forward cached: no tokens")
	case pos0+n > c.Cap():
		return nil, fmt.Errorf("gpt: forward cached: %d cached + %d new positions exceed the cache's %d: Cannot forward sequence of length %d, block size is only %d",
			pos0, n, c.Cap(), pos0+n, cfg.BlockSize)
	}
	for t, id := range ids {
		if id < 0 || id >= V {
			return nil, fmt.Errorf("gpt: forward cached: token id %d at position %d is outside the vocabulary [0, %d)", id, t, V)
		}
	}
	a := m.cached
	if a == nil || len(a.encoded) < n*C {
		a = newActivations(cfg, 1, n, false)
		m.cached = a
	}
	a.N, a.T = n, n // use the first n rows of buffers that may be larger

	round := m.rounder()
	m.embed(a.encoded, ids, pos0, 1, n)
	round(a.encoded[:n*C])
	x := a.encoded
	for l := 0; l < cfg.Layers; l++ {
		la := a.layer(l, C, NH)
		kc, vc := c.full(l)
		attend := func(atty, _, qkv []float32) {
			// Append this step's keys and values, then attend over everything cached.
			for t := 0; t < n; t++ {
				copy(kc[(pos0+t)*C:(pos0+t+1)*C], qkv[t*3*C+C:t*3*C+2*C])
				copy(vc[(pos0+t)*C:(pos0+t+1)*C], qkv[t*3*C+2*C:t*3*C+3*C])
			}
			attentionCached(atty, qkv, kc, vc, n, pos0, C, NH, m.Precision == BF16)
		}
		blockForward(la, x, m.block(l), attend, round, n, C)
		x = la.residual3
	}
	c.n += n

	last := a.lnf[:C]
	lnfW, lnfB := m.finalNorm()
	layernormForward(last, nil, nil, x[(n-1)*C:n*C], lnfW, lnfB, 1, C)
	round(last)
	logits := make([]float32, V)
	m.logits(logits, last, 1)
	round(logits)
	return logits, nil
}
