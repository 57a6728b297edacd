package gpt

import (
	"fmt"
	"math"
	"strings"
)

// The hooked run: the forward of run.go, stopping at every hook point of hookpoints.go to
// hand the activation to the hooks and the cache. RunWithHooks and RunWithCache (cache.go)
// run it; Forward never does, so a forward with no hook and no cache pays nothing for them.
//
// It computes what Forward computes, op for op, with two differences a student can see:
// attention runs as its steps, scores → mask → softmax → weighted sum (the fast kernel
// fuses them and never holds the (T, T) pattern), and LayerNorm as its scale, the
// normalised row, and the affine weight and bias. The logits agree with Forward's to a
// relative 1e-5 (TestRunWithCacheMatchesForward): the sums are the same sums in another
// order. A BF16 model rounds what Forward rounds, by the same policy (run.at).

// Hook is a function the forward calls at every hook point whose name matches Name.
type Hook struct {
	// Name is a hook point's name ("blocks.0.hook_resid_mid") or a pattern of them
	// ("blocks.*.attn.hook_pattern"; see MatchHook).
	Name string
	// Fn sees the activation while the forward runs. It may change a.Data in place (or
	// assign a slice of the same length to it), and every later op uses the change.
	// a.Data belongs to the forward: copy it to keep it after Fn returns.
	Fn func(a *Activation)
}

// RunWithHooks runs the model over one sequence of token ids, calling each hook at the
// hook points it names, in forward order, and returns the logits of every position
// (1, T, V). An error names a hook whose name matches no hook point of the model, or a
// hook that panicked or changed the length of its activation.
//
//	out, err := m.RunWithHooks(ids, gpt.Hook{Name: "blocks.0.attn.hook_z", Fn: func(a *gpt.Activation) {
//		clear(a.Data) // zero every head's output in block 0
//	}})
func (m *Model) RunWithHooks(ids []int, hooks ...Hook) (*Output, error) {
	out, _, err := m.runHooked("run with hooks", [][]int{ids}, hooks, nil)
	return out, err
}

// hookRun is the watcher of one hooked forward: the hooks to call, what to cache, and the
// first error. Uncached it sees B sequences of T positions; in a cached step, T new
// positions pos0 … pos0+T-1 of one sequence, whose scores span pos0+T keys.
type hookRun struct {
	cfg   Config
	op    string // "run with hooks", for errors
	B, T  int
	pos0  int
	hooks []Hook
	keep  func(name string) bool // which activations the cache copies; nil keeps none
	cache *ActivationCache
	err   error // the first hook that failed; later hooks are skipped
}

// run returns the forward of m over B sequences of T positions with h watching it.
func (h *hookRun) run(m *Model, a *activations) *run {
	r := m.newRun(a, h.B, h.T)
	r.pos0 = h.pos0
	r.watch = h.at
	r.wants = func(l int, site string) bool { return h.wants(hookName(l, site)) }
	return r
}

// runHooked checks the batch and the hooks' names, then runs the hooked forward over
// batch (B, T), returning the logits of every position (B, T, V) and, when keep is not
// nil, the cache of the activations it keeps.
func (m *Model) runHooked(op string, batch [][]int, hooks []Hook, keep func(string) bool) (*Output, *ActivationCache, error) {
	B, T, err := m.checkBatch(op, batch, nil)
	if err != nil {
		return nil, nil, err
	}
	if err := checkHookNames(m.Config, op, hooks); err != nil {
		return nil, nil, err
	}
	h := &hookRun{cfg: m.Config, op: op, B: B, T: T, hooks: hooks, keep: keep}
	if keep != nil {
		h.cache = &ActivationCache{Config: m.Config, B: B, T: T, model: m, acts: map[string]*Activation{}}
		for _, row := range batch {
			h.cache.IDs = append(h.cache.IDs, append([]int(nil), row...))
		}
	}
	ids := make([]int, 0, B*T)
	for _, row := range batch {
		ids = append(ids, row...)
	}
	a := newActivations(m.Config, B, T, false)
	r := h.run(m, a)
	x := r.forward(ids)
	logits := make([]float32, B*T*m.Config.VocabSize) // (B, T, V)
	r.final(logits, a.lnf, nil, nil, x, B*T)
	if h.err != nil {
		return nil, nil, h.err
	}
	return &Output{Logits: logits, B: B, T: T, V: m.Config.VocabSize, Loss: float32(math.NaN())}, h.cache, nil
}

// forwardCachedHooked is ForwardCached with hooks: the hooked forward of the new
// positions ids against the keys and values cached in c, to which it appends theirs. It
// returns the logits (V) of the last new position and, when keep is not nil, the cache of
// the activations it keeps: (1, n, …) for the n new positions, and (1, NH, n, pos0+n) for the
// scores and the pattern, the new queries' rows over every key. What the hooks see is in
// generate.go.
func (m *Model) forwardCachedHooked(c *KVCache, ids []int, hooks []Hook, keep func(string) bool) ([]float32, *ActivationCache, error) {
	const op = "generate with hooks"
	if err := m.checkCached(op, c, ids); err != nil {
		return nil, nil, err
	}
	if err := checkHookNames(m.Config, op, hooks); err != nil {
		return nil, nil, err
	}
	n, V := len(ids), m.Config.VocabSize
	h := &hookRun{cfg: m.Config, op: op, B: 1, T: n, pos0: c.n, hooks: hooks, keep: keep}
	if keep != nil {
		h.cache = &ActivationCache{Config: m.Config, B: 1, T: n, model: m, acts: map[string]*Activation{},
			IDs: [][]int{append([]int(nil), ids...)}}
	}
	a := newActivations(m.Config, 1, n, false)
	r := h.run(m, a)
	c.reserve(c.n + n)
	r.kv = c
	x := r.forward(ids)
	logits := make([]float32, n*V) // (1, n, V): the hooks see every new position's
	r.final(logits, a.lnf, nil, nil, x, n)
	if h.err != nil {
		return nil, nil, h.err
	}
	c.n += n
	return logits[(n-1)*V:], h.cache, nil
}

// checkHookNames returns an error for a hook with no function or whose name or pattern
// matches no hook point of cfg.
func checkHookNames(cfg Config, op string, hooks []Hook) error {
	names := HookNames(cfg)
	for _, h := range hooks {
		if h.Fn == nil {
			return fmt.Errorf("gpt: %s: hook %q has no function", op, h.Name)
		}
		if matchAny(h.Name, names) {
			continue
		}
		if !strings.Contains(h.Name, "*") {
			if _, err := LookupHook(cfg, h.Name); err != nil {
				return fmt.Errorf("gpt: %s: hook %q: %w", op, h.Name, err)
			}
		}
		return fmt.Errorf("gpt: %s: hook pattern %q matches no hook point (see gpt.HookNames)", op, h.Name)
	}
	return nil
}

// matchAny reports whether pattern matches one of names.
func matchAny(pattern string, names []string) bool {
	for _, n := range names {
		if MatchHook(pattern, n) {
			return true
		}
	}
	return false
}

// matchedByAny reports whether name matches one of patterns.
func matchedByAny(name string, patterns []string) bool {
	for _, p := range patterns {
		if MatchHook(p, name) {
			return true
		}
	}
	return false
}

// wants reports whether a hook or the cache asks for the activation called name; the
// forward computes hook_result only then.
func (r *hookRun) wants(name string) bool {
	if r.keep != nil && r.keep(name) {
		return true
	}
	for _, h := range r.hooks {
		if MatchHook(h.Name, name) {
			return true
		}
	}
	return false
}

// at hands the tensor of block l called site, held in data, to every hook that matches
// its name and then to the cache, which keeps a copy; tensors that are no hook point of
// the model pass. data is the forward's own buffer: what the hooks change there, the later
// ops read.
func (r *hookRun) at(l int, site string, data []float32) {
	if r.err != nil || !sites[site].isHook(r.cfg) {
		return
	}
	name := hookName(l, site)
	p, err := LookupHook(r.cfg, name)
	if err != nil {
		panic(err) // the forward names only hook points of the table
	}
	shape := p.Shape(r.cfg, r.B, r.T)
	if len(p.Dims) == 4 && p.Dims[3] == "T" { // scores and pattern: (B, NH, T, keys)
		shape[3] = r.pos0 + r.T
	}
	if product(shape) != len(data) {
		panic(fmt.Sprintf("gpt: hooked forward: %s has %d values for shape %v", name, len(data), shape))
	}
	for _, h := range r.hooks {
		if !MatchHook(h.Name, name) {
			continue
		}
		where := fmt.Sprintf("hook %q", h.Name)
		if h.Name != name {
			where += " at " + name
		}
		a := &Activation{Name: name, Shape: append([]int(nil), shape...), Data: data}
		if err := callHook(h, a); err != nil {
			r.err = fmt.Errorf("gpt: %s: %s: %w", r.op, where, err)
			return
		}
		if len(a.Data) != len(data) {
			r.err = fmt.Errorf("gpt: %s: %s: Data has %d values after the hook, want %d (shape %v): change the values, not the length",
				r.op, where, len(a.Data), len(data), shape)
			return
		}
		if len(data) > 0 && &a.Data[0] != &data[0] {
			copy(data, a.Data) // the hook assigned a new slice: its values are the change
		}
	}
	if r.keep != nil && r.keep(name) {
		r.cache.add(&Activation{Name: name, Shape: shape, Data: append([]float32(nil), data...)})
	}
}

// callHook runs h.Fn, turning a panic (a cell's index out of range, say) into an error.
func callHook(h Hook, a *Activation) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	h.Fn(a)
	return nil
}
