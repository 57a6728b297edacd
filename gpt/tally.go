package gpt

// Tally is the work a model has done since it was made (or Shared): how many positions its
// forwards pushed through the blocks, how many of those went through a KV cache, and how
// many caches it made. A cached greedy loop of n steps after a prompt of P tokens makes one
// cache and forwards P + n − 1 positions, all of them cached (Positions counts them the
// same way); a loop that forwards the whole context at every step forwards far more.
// check.CachedLoop reads it to tell a cached loop from one whose logits come out the same
// another way.
type Tally struct {
	Positions int // positions forwarded: every position of Forward's batch (NextLogits's context), and ForwardCached's new ones
	Cached    int // of those, the positions ForwardCached pushed into a cache
	Caches    int // the caches NewCache made
}

// Tally returns the work m has done so far. A model made by Share starts from zero.
func (m *Model) Tally() Tally { return m.tally }
