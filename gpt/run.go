package gpt

import "strconv"

// One forward, several ways to run it. The steps of the model are written once, in the
// files of each step (embed.go, layernorm.go, attention.go, mlp.go, residual.go, block.go),
// as TransformerLens writes its forward: each line that computes a tensor of the table in
// hookpoints.go hands it to r.at. What r.at does is the way of running:
//
//	Forward, ForwardCached   nothing but the precision policy below, and LayerNorm and
//	                         attention run as fused kernels when useFast (fast.go)
//	RunWithHooks, RunWithCache, a Generator with Hooks
//	                         calls the hooks that match the name, keeps a copy for the
//	                         cache (hooked.go)
//	Stepper                  pauses the forward after each op and hands the op to the cell
//	                         (stepper.go)
//
// The precision is one policy, applied in r.at to every tensor the table marks as an op's
// output: a BF16 model rounds it to bfloat16 before anything reads it (bf16.go lists
// where). An FP32 forward with nobody watching returns from r.at at once.

// run is one forward pass of B sequences of T positions, or, in a cached step (kv not
// nil), of T new positions pos0 … pos0+T-1 of one sequence against the keys and values in
// kv, to which it appends theirs.
type run struct {
	m    *Model
	cfg  Config
	B, T int
	pos0 int      // the first position: 0, or the cache's length in a cached step
	kv   *KVCache // a cached step's keys and values; nil uncached
	bf16 bool     // the precision policy: round every op's output to bfloat16

	// watch is the way of running: it sees each tensor of the table (by its name relative
	// to block l, or l = -1 outside the blocks) right after the line that computes it, and
	// may change its values. nil: a plain forward.
	watch func(l int, site string, data []float32)
	// wants reports whether the watcher asks for the tensor of block l called site; the
	// forward computes hook_result and hook_mlp_in only when asked. nil: never.
	wants func(l int, site string) bool

	a     *activations // the tensors the backward pass reads, and the block's outputs
	steps *stepBufs    // the readable steps' own tensors; nil until one runs
	fresh bool         // new stepBufs for every block and ln_f, so that none overwrites another's tensors (the Stepper)
}

// newRun prepares a forward of m over B sequences of T positions into a.
func (m *Model) newRun(a *activations, B, T int) *run {
	return &run{m: m, cfg: m.Config, B: B, T: T, bf16: m.Precision == BF16, a: a}
}

// at is where the forward hands over the tensor of block l (l = -1: outside the blocks)
// called site, which the line before it computed into data. It applies the precision
// policy, then the way of running.
func (r *run) at(l int, site string, data []float32) {
	if r.watch == nil && !r.bf16 {
		return
	}
	if r.bf16 && sites[site].bf16 {
		roundBF16(data)
	}
	if r.watch != nil {
		r.watch(l, site, data)
	}
}

// fused reports whether a step runs as its fast kernel: when useFast and nobody watches
// the tensors inside it (the fused kernels never hold them).
func (r *run) fused() bool { return useFast && r.watch == nil }

// keys is how many keys each query's row of scores spans: T, or pos0+T in a cached step.
func (r *run) keys() int { return r.pos0 + r.T }

// hookName is the full name of the table's site in block l: "blocks.3.attn.hook_q", or the
// site itself outside the blocks.
func hookName(l int, site string) string {
	if l < 0 {
		return site
	}
	return "blocks." + strconv.Itoa(l) + "." + site
}

// forward runs the model over ids (B·T tokens, row after row) and returns the residual
// stream after the last block, (B, T, C).
func (r *run) forward(ids []int) []float32 {
	x := r.embed(ids)
	for l := 0; l < r.cfg.Layers; l++ {
		x = r.block(l, r.m.block(l), x, r.a.layer(l, r.cfg.Channels, r.cfg.Heads))
	}
	return x
}

// final is ln_f and the tied output layer on n rows of the stream x (n, C), into out
// (n, V): every position, or only the last ones.
func (r *run) final(out, lnf, mean, rstd, x []float32, n int) {
	if r.fresh {
		r.steps = nil
	}
	w, b := r.m.finalNorm()
	r.layerNorm(-1, "ln_final.", lnf, mean, rstd, x, w, b, n)
	r.m.logits(out, lnf, n)
	r.at(-1, "logits", out)
}

// stepBufs are the tensors of a block that only the readable steps hold (the fused
// kernels never do): LayerNorm's scale and normalized row, q, k and v in heads, the scores
// and pattern, each head's result.
type stepBufs struct {
	scale, normalized []float32 // (B, T), (B, T, C)
	q, k, v, z        []float32 // (B, T, NH, HS) each
	scores, masked    []float32 // (B, NH, T, K), K keys: T, or pos0+T in a cached step
	pattern           []float32 // (B, NH, T, K), unless training keeps it in activations.att
	result            []float32 // (B, T, NH, C), made when asked for
	mlpIn             []float32 // (B, T, C), with Config.HookMLPIn
	kw, vw            []float32 // (K, C) a BF16 cache's keys and values, widened
	hq, hz, hk, hv    []float32 // (T, HS) one head's queries and z; (K, HS) its keys and values
	hkT, hzAll, hres  []float32 // (HS, K); (B·T, HS) one head's z; (B·T, C) one head's result
}

// bufs returns the readable steps' tensors of the block about to run.
func (r *run) bufs() *stepBufs {
	if r.steps != nil {
		return r.steps
	}
	B, T, K, C, NH := r.B, r.T, r.keys(), r.cfg.Channels, r.cfg.Heads
	N, HS := B*T, C/NH
	f := func(n int) []float32 { return make([]float32, n) }
	r.steps = &stepBufs{
		scale: f(N), normalized: f(N * C),
		q: f(N * C), k: f(N * C), v: f(N * C), z: f(N * C),
		scores: f(B * NH * T * K), masked: f(B * NH * T * K), pattern: f(B * NH * T * K),
		hzAll: f(N * HS), hres: f(N * C),
	}
	return r.steps
}
