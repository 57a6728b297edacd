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

// DropOldest removes the oldest n positions by moving the rest to the front, without
// recomputing them: what a naive cached loop does when the context outgrows the block, and
// the stale-cache bug, kept here to be shown. Every key and value left was computed by
// attending to the dropped tokens, and with the position embedding of where it used to be,
// so the cache no longer holds what a forward of the kept tokens would compute: the next
// token's logits come out wrong, with no error. The Generator never does this unless its
// StaleCrop is set; its crops re-prefill.
func (c *KVCache) DropOldest(n int) error {
	if n < 0 || n > c.n {
		return fmt.Errorf("gpt: kv cache: drop %d of %d positions", n, c.n)
	}
	C := c.Config.Channels
	for l := 0; l < c.Config.Layers; l++ {
		k, v := c.full(l)
		copy(k, k[n*C:c.n*C])
		copy(v, v[n*C:c.n*C])
	}
	c.n -= n
	return nil
}

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
	if err := m.checkCached("forward cached", c, ids); err != nil {
		return nil, err
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
			attentionCached(atty, qkv, kc, vc, n, pos0, C, NH)
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

// checkCached returns an error if ids cannot be pushed through m into c: a cache of
// another config, no tokens, past the cache's capacity, or an id outside the vocabulary.
func (m *Model) checkCached(op string, c *KVCache, ids []int) error {
	cfg := m.Config
	n, pos0 := len(ids), c.n
	switch {
	case c.Config != cfg:
		return fmt.Errorf("gpt: %s: cache made for %v, model is %v", op, c.Config, cfg)
	case n == 0:
		return fmt.Errorf("gpt: %s: no tokens", op)
	case pos0+n > c.Cap():
		return fmt.Errorf("gpt: %s: %d cached + %d new positions exceed the cache's %d: Cannot forward sequence of length %d, block size is only %d",
			op, pos0, n, c.Cap(), pos0+n, cfg.BlockSize)
	}
	for t, id := range ids {
		if id < 0 || id >= cfg.VocabSize {
			return fmt.Errorf("gpt: %s: token id %d at position %d is outside the vocabulary [0, %d)", op, id, t, cfg.VocabSize)
		}
	}
	return nil
}
