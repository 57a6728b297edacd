package gpt

import (
	"fmt"

	"github.com/gptnotes/gptnotes/gpt/internal/pages"
)

// KVCache holds the keys and values of every position a sequence has pushed through the
// model, so that the next token attends to them without recomputing them: 2·L·C numbers a
// position, for GPT-2 small 2·12·768 = 18,432, ≈74 kB in fp32 and ≈75 MB for 1,024
// positions.
//
// It is one slab, (L, 2, room, C), grown as positions arrive: room for 64 positions (or the
// prompt) at first, doubled when full, up to BlockSize. Making the whole slab at once would
// cost the first step of a generation the zeroing of all of it — 38 MB for Small in bf16,
// page faults included, some hundred milliseconds when the memory is reused — for positions
// a short generation never reaches; growing costs a copy of what is cached at each
// doubling, one step in a few hundred.
//
// A run that knows its length reserves its positions at once (Generator.Reserve): one slab,
// no copies. And a Generator that is done gives its slab back to the model (Generator.Close),
// which keeps it as its spare for the next Generator's cache: run after run then allocates
// no cache at all (see "The spare" below).
//
// A BF16 model's cache holds bfloat16, half the bytes (≈37 kB a position for Small): its
// keys and values are bfloat16 values already (c_attn's output is rounded), so the cache
// loses nothing, and the cached step reads it with the bf16 kernels. An FP32 model's cache
// is float32, since rounding its keys would change its results.
type KVCache struct {
	Config    Config
	Precision Precision // of the numbers held: the model's
	data      []float32 // FP32: (L, 2, room, C), per layer its keys then its values
	data16    []uint16  // BF16: the same layout in bfloat16
	room      int       // positions the slab has room for, ≤ BlockSize
	n         int       // positions held
}

// NewCache makes an empty cache for one sequence of up to BlockSize positions, in the
// model's precision. It grows to CacheBytes(m.Config, BlockSize, 4 or 2) bytes when full.
func (m *Model) NewCache() *KVCache {
	m.tally.Caches++
	return &KVCache{Config: m.Config, Precision: m.Precision}
}

// minRoom is the fewest positions a cache makes room for.
const minRoom = 64

// reserve makes room for n positions, keeping those held: a new slab of at least twice the
// room (at most BlockSize), the cached keys and values copied over. The slab asks for huge
// pages before anything is written to it: each step writes new rows in every layer's part of
// it, and where a page fault is dear (10 µs a 4 kB page in a virtual machine) the first
// generation's steps would spend half a millisecond each faulting them in (package pages).
func (c *KVCache) reserve(n int) {
	if n <= c.room {
		return
	}
	room := min(c.Config.BlockSize, max(n, 2*c.room, minRoom))
	L, C := c.Config.Layers, c.Config.Channels
	if c.Precision == BF16 {
		old, oldRoom := c.data16, c.room
		c.data16, c.room = make([]uint16, 2*L*room*C), room
		pages.Huge(c.data16)
		for i := 0; i < 2*L; i++ { // each layer's keys, then its values
			copy(c.data16[i*room*C:], old[i*oldRoom*C:i*oldRoom*C+c.n*C])
		}
		return
	}
	old, oldRoom := c.data, c.room
	c.data, c.room = make([]float32, 2*L*room*C), room
	pages.Huge(c.data)
	for i := 0; i < 2*L; i++ {
		copy(c.data[i*room*C:], old[i*oldRoom*C:i*oldRoom*C+c.n*C])
	}
}

// The spare. A cache's slab is by far the biggest thing a generation allocates (19.6 MB for
// the 266 positions of an 11-token prompt and 256 new tokens of Small in fp32), and a
// notebook makes one Generator after another over the same model: each slab left as
// garbage brings the next garbage collection closer. So the model keeps the slab of the
// last closed Generator, one at most, and the next Generator's cache starts from it.
//
// The slab comes back holding the last run's keys and values; it is not zeroed, and need
// not be. A cache reads no position at or past Len: a step writes its positions' keys and
// values before it attends over them (attention.go), so every key a query reads was
// written in this run. A cache handed on is emptied, its memory taken away, so a closed
// Generator's cache (or whoever kept it) never sees the next run's keys.

// takeSpare returns an empty cache for a Generator over m: the spare slab in a cache of its
// own, or a new cache (NewCache) when m has none. The spare is m's no longer.
func (m *Model) takeSpare() *KVCache {
	c := m.NewCache()
	if s := m.spare; s.Config == m.Config && s.Precision == m.Precision {
		c.data, c.data16, c.room = s.data, s.data16, s.room
	}
	m.spare = KVCache{}
	return c
}

// keepSpare empties c, a cache nobody will use again, and keeps its slab as m's spare —
// unless the spare m has is larger. c is left with no memory and holds no positions.
func (m *Model) keepSpare(c *KVCache) {
	if c.room > m.spare.room && c.Config == m.Config && c.Precision == m.Precision {
		m.spare = KVCache{Config: c.Config, Precision: c.Precision, data: c.data, data16: c.data16, room: c.room}
	}
	c.data, c.data16, c.room, c.n = nil, nil, 0, 0
}

// Len is the number of positions in the cache.
func (c *KVCache) Len() int { return c.n }

// Cap is the number of positions the cache can hold, the block size.
func (c *KVCache) Cap() int { return c.Config.BlockSize }

// Bytes is the memory the cache takes when full: 2·L·BlockSize·C numbers of 4 bytes
// (FP32) or 2 (BF16), CacheBytes(c.Config, BlockSize, 4 or 2).
func (c *KVCache) Bytes() int {
	size := 4
	if c.Precision == BF16 {
		size = 2
	}
	return CacheBytes(c.Config, c.Config.BlockSize, size)
}

// allocated is the memory the cache has made room in so far: Bytes once it has grown to
// BlockSize positions.
func (c *KVCache) allocated() int { return 4*len(c.data) + 2*len(c.data16) }

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
		if c.Precision == BF16 {
			k, v := c.full16(l)
			copy(k, k[n*C:c.n*C])
			copy(v, v[n*C:c.n*C])
			continue
		}
		k, v := c.full(l)
		copy(k, k[n*C:c.n*C])
		copy(v, v[n*C:c.n*C])
	}
	c.n -= n
	return nil
}

// Layer returns the keys and values of layer l, each (Len, C) with the heads side by side
// (head h in channels h·HS … (h+1)·HS-1). In FP32 they are views, which change as the
// cache fills until it grows into a new slab; in BF16 they are copies, widened to float32.
func (c *KVCache) Layer(l int) (k, v []float32) {
	C := c.Config.Channels
	if c.Precision == BF16 {
		k16, v16 := c.full16(l)
		k, v = make([]float32, c.n*C), make([]float32, c.n*C)
		for i := range k {
			k[i], v[i] = bf16ToFloat32(k16[i]), bf16ToFloat32(v16[i])
		}
		return k, v
	}
	k, v = c.full(l)
	return k[: c.n*C : c.n*C], v[: c.n*C : c.n*C]
}

// full returns layer l's key and value slabs, (room, C) each (FP32).
func (c *KVCache) full(l int) (k, v []float32) {
	n := c.room * c.Config.Channels
	k = c.data[2*l*n : (2*l+1)*n]
	v = c.data[(2*l+1)*n : (2*l+2)*n]
	return k, v
}

// full16 is full for a BF16 cache.
func (c *KVCache) full16(l int) (k, v []uint16) {
	n := c.room * c.Config.Channels
	k = c.data16[2*l*n : (2*l+1)*n]
	v = c.data16[(2*l+1)*n : (2*l+2)*n]
	return k, v
}

// ForwardCached pushes ids through the model as the next positions of the sequence in c —
// a whole prompt (prefill) or one generated token — appending their keys and values to c,
// and returns the logits (V) of the last of them. Only the new positions are computed.
// It is an error to push past c.Cap(), or an id outside the vocabulary.
func (m *Model) ForwardCached(c *KVCache, ids []int) ([]float32, error) {
	if err := m.checkCached("forward cached", c, ids); err != nil {
		return nil, err
	}
	return m.forwardCached(make([]float32, m.Config.VocabSize), c, ids), nil
}

// forwardCached is ForwardCached on checked arguments, writing the logits into out (V) and
// returning it: the Generator passes a buffer of its own, so that a decode step allocates
// nothing.
func (m *Model) forwardCached(out []float32, c *KVCache, ids []int) []float32 {
	cfg := m.Config
	C := cfg.Channels
	n, pos0 := len(ids), c.n
	c.reserve(pos0 + n)
	a := m.cached
	if a == nil || len(a.encoded) < n*C {
		a = newActivations(cfg, 1, n, false)
		m.cached = a
	}
	a.N, a.T = n, n // use the first n rows of buffers that may be larger
	m.tally.Positions += n
	m.tally.Cached += n

	r := m.newRun(a, 1, n)
	r.pos0, r.kv = pos0, c
	x := r.forward(ids)
	c.n += n

	r.final(out, a.lnf[:C], nil, nil, x[(n-1)*C:n*C], 1)
	return out
}

// checkCached returns an error if ids cannot be pushed through m into c: a cache of
// another config, no tokens, past the cache's capacity, or an id outside the vocabulary.
func (m *Model) checkCached(op string, c *KVCache, ids []int) error {
	cfg := m.Config
	n, pos0 := len(ids), c.n
	switch {
	case c.Config != cfg:
		return fmt.Errorf("gpt: %s: cache made for %v, model is %v", op, c.Config, cfg)
	case c.Precision != m.Precision:
		return fmt.Errorf("gpt: %s: a %v cache for a %v model: make it with the model's NewCache", op, c.Precision, m.Precision)
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
