package gpt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The hooked forward: the model's readable ops, in the order the data flows, stopping at
// every hook point of hookpoints.go to hand the activation to the hooks and the cache.
// RunWithHooks and RunWithCache (cache.go) run it; Forward never does, so a forward with
// no hook and no cache pays nothing for them.
//
// It computes what Forward computes, op for op, with two differences a student can see:
// attention is written out as scores → mask → softmax → weighted sum (the fast kernel
// fuses them and never holds the (T, T) pattern), and LayerNorm is split into its scale,
// the normalised row, and the affine weight and bias. The logits agree with Forward's
// to a relative 1e-5 (TestRunWithCacheMatchesForward): the sums are the same sums in
// another order.
//
// A BF16 model is run with the same rounding as Forward: every op's output (ln_1's and
// ln_2's output after the weight and bias, q|k|v, z, attn_out, resid_mid, mlp_pre,
// mlp_post, mlp_out, resid_post, ln_f, the logits) is rounded to bfloat16; the values
// inside an op (hook_scale, hook_normalized, the scores, the pattern, hook_result) are not.

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

// hookRun is one hooked forward: the hooks to call, what to cache, and the first error.
// Uncached it runs B sequences of T positions; as a cached step (kv not nil) it runs T new
// positions pos0 … pos0+T-1 of one sequence against the keys and values in kv.
type hookRun struct {
	m     *Model
	op    string // "run with hooks", for errors
	B, T  int
	hooks []Hook
	keep  func(name string) bool // which activations the cache copies; nil keeps none
	cache *ActivationCache
	err   error // the first hook that failed; later hooks are skipped

	kv   *KVCache // a cached step's keys and values; nil uncached
	pos0 int      // the first new position of a cached step; 0 uncached
}

// keys is how many keys each query's row of scores spans: T, or pos0+T in a cached step.
func (r *hookRun) keys() int { return r.pos0 + r.T }

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
	r := &hookRun{m: m, op: op, B: B, T: T, hooks: hooks, keep: keep}
	if keep != nil {
		r.cache = &ActivationCache{Config: m.Config, B: B, T: T, model: m, acts: map[string]*Activation{}}
		for _, row := range batch {
			r.cache.IDs = append(r.cache.IDs, append([]int(nil), row...))
		}
	}
	out := r.forward(batch)
	if r.err != nil {
		return nil, nil, r.err
	}
	return out, r.cache, nil
}

// forwardCachedHooked is ForwardCached with hooks: the hooked forward of the new
// positions ids against the keys and values cached in c, to which it appends theirs. It
// returns the logits (V) of the last new position. What the hooks see is in generate.go.
func (m *Model) forwardCachedHooked(c *KVCache, ids []int, hooks []Hook) ([]float32, error) {
	const op = "generate with hooks"
	if err := m.checkCached(op, c, ids); err != nil {
		return nil, err
	}
	if err := checkHookNames(m.Config, op, hooks); err != nil {
		return nil, err
	}
	n := len(ids)
	r := &hookRun{m: m, op: op, B: 1, T: n, hooks: hooks, kv: c, pos0: c.n}
	out := r.forward([][]int{ids})
	if r.err != nil {
		return nil, r.err
	}
	c.n += n
	return append([]float32(nil), out.Row(0, n-1)...), nil
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

// at hands the activation called name, held in data, to every hook that matches it and
// then to the cache, which keeps a copy. data is the forward's own buffer: what the hooks
// change there, the later ops read.
func (r *hookRun) at(name string, data []float32) {
	if r.err != nil {
		return
	}
	cfg := r.m.Config
	p, err := LookupHook(cfg, name)
	if err != nil {
		panic(err) // the forward below names only hook points of the table
	}
	shape := p.Shape(cfg, r.B, r.T)
	if len(p.Dims) == 4 && p.Dims[3] == "T" { // scores and pattern: (B, NH, T, keys)
		shape[3] = r.keys()
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

// forward is the model over batch (B, T), stopping at every hook point. In a cached step
// the positions are pos0 … pos0+T-1 and their keys and values are appended to r.kv.
func (r *hookRun) forward(batch [][]int) *Output {
	m, cfg := r.m, r.m.Config
	B, T, C, V := r.B, r.T, cfg.Channels, cfg.VocabSize
	N := B * T
	round := m.rounder()
	ids := make([]int, 0, N)
	for _, row := range batch {
		ids = append(ids, row...)
	}

	// The residual stream starts as each token's row of wte plus its position's row of wpe.
	embed, posEmbed := make([]float32, N*C), make([]float32, N*C) // (B, T, C) each
	m.embedRows(embed, posEmbed, ids, r.pos0, B, T)
	r.at("hook_embed", embed)
	r.at("hook_pos_embed", posEmbed)
	x := make([]float32, N*C) // (B, T, C) the residual stream
	residualForward(x, embed, posEmbed, N*C)
	round(x)

	bufs := newHookedBuffers(cfg, B, T, r.keys())
	for l := 0; l < cfg.Layers; l++ {
		r.block(l, x, bufs)
		if r.err != nil {
			return nil
		}
	}

	// ln_f, then the tied output layer.
	lnfW, lnfB := m.finalNorm()
	lnf := bufs.ln
	r.layerNorm("ln_final.", lnf, bufs.scale, x, lnfW, lnfB)
	logits := make([]float32, N*V) // (B, T, V)
	m.logits(logits, lnf, N)
	round(logits)
	r.at("logits", logits)
	return &Output{Logits: logits, B: B, T: T, V: V, Loss: float32(math.NaN())}
}

// hookedBuffers are one block's activations, reused by every block.
type hookedBuffers struct {
	scale        []float32 // (B, T) a LayerNorm's scale of each position
	ln           []float32 // (B, T, C) hook_normalized, then the LayerNorm's output
	qkv          []float32 // (B, T, 3C) attn.c_attn's output
	q, k, v, z   []float32 // (B, T, NH, HS) each
	scores       []float32 // (B, NH, T, K), K keys: T, or pos0+T in a cached step
	pattern      []float32 // (B, NH, T, K)
	result       []float32 // (B, T, NH, C)
	attnOut, mid []float32 // (B, T, C) hook_attn_out, hook_resid_mid
	pre, post    []float32 // (B, T, 4C) mlp.hook_pre, mlp.hook_post
	mlpOut       []float32 // (B, T, C)
	hq, hz       []float32 // (T, HS) one head's queries, its z
	hk, hv       []float32 // (K, HS) one head's keys and values
	hkT, hres    []float32 // (HS, K) hk transposed; hres (B·T, C) one head's result
	hzAll        []float32 // (B·T, HS) one head's z over every position
}

func newHookedBuffers(cfg Config, B, T, K int) *hookedBuffers {
	N, C, NH := B*T, cfg.Channels, cfg.Heads
	HS := C / NH
	f := func(n int) []float32 { return make([]float32, n) }
	return &hookedBuffers{
		scale: f(N), ln: f(N * C), qkv: f(N * 3 * C),
		q: f(N * C), k: f(N * C), v: f(N * C), z: f(N * C),
		scores: f(B * NH * T * K), pattern: f(B * NH * T * K),
		attnOut: f(N * C), mid: f(N * C), pre: f(N * 4 * C), post: f(N * 4 * C), mlpOut: f(N * C),
		hq: f(T * HS), hk: f(K * HS), hv: f(K * HS), hkT: f(HS * K), hz: f(T * HS),
		hzAll: f(N * HS), hres: f(N * C),
	}
}

// block is one transformer block over the residual stream x (B, T, C), which it updates
// in place: x = x + attn(ln_1(x)), then x = x + mlp(ln_2(x)).
func (r *hookRun) block(l int, x []float32, b *hookedBuffers) {
	m, cfg := r.m, r.m.Config
	N, C := r.B*r.T, cfg.Channels
	round := m.rounder()
	w := m.block(l)
	p := "blocks." + strconv.Itoa(l) + "."

	r.at(p+"hook_resid_pre", x)
	r.layerNorm(p+"ln1.", b.ln, b.scale, x, w.Ln1W, w.Ln1B)
	r.attention(l, p+"attn.", b, w)
	r.at(p+"hook_attn_out", b.attnOut)
	residualForward(b.mid, x, b.attnOut, N*C)
	round(b.mid)
	r.at(p+"hook_resid_mid", b.mid)

	r.layerNorm(p+"ln2.", b.ln, b.scale, b.mid, w.Ln2W, w.Ln2B)
	matmulForward(b.pre, b.ln, w.CFcW, w.CFcB, N, C, 4*C)
	round(b.pre)
	r.at(p+"mlp.hook_pre", b.pre)
	geluForward(b.post, b.pre, N*4*C)
	round(b.post)
	r.at(p+"mlp.hook_post", b.post)
	matmulForward(b.mlpOut, b.post, w.MlpCProjW, w.MlpCProjB, N, 4*C, C)
	round(b.mlpOut)
	r.at(p+"hook_mlp_out", b.mlpOut)
	residualForward(x, b.mid, b.mlpOut, N*C)
	round(x)
	r.at(p+"hook_resid_post", x)
}

// layerNorm is LayerNorm in three steps, each with its hook point:
//
//	scale      = √(var(x) + 1e-5)        prefix+"hook_scale"       (B, T, 1)
//	normalized = (x − mean(x)) / scale   prefix+"hook_normalized"  (B, T, C)
//	out        = normalized·weight + bias
//
// out and x are (B, T, C); out may not be x.
func (r *hookRun) layerNorm(prefix string, out, scale, x, weight, bias []float32) {
	N, C := r.B*r.T, r.m.Config.Channels
	mean := make([]float64, N)
	for n := 0; n < N; n++ {
		row := x[n*C : (n+1)*C]
		mean[n] = sum64(row) / float64(C)
		scale[n] = float32(math.Sqrt(sumSquaredDev64(row, mean[n])/float64(C) + lnEps))
	}
	r.at(prefix+"hook_scale", scale[:N])
	for n := 0; n < N; n++ {
		mf, rs := float32(mean[n]), float32(1/float64(scale[n]))
		for i, v := range x[n*C : (n+1)*C] {
			out[n*C+i] = (v - mf) * rs
		}
	}
	r.at(prefix+"hook_normalized", out[:N*C])
	for n := 0; n < N; n++ {
		o := out[n*C : (n+1)*C]
		for i := range o {
			o[i] = o[i]*weight[i] + bias[i]
		}
	}
	r.m.rounder()(out[:N*C])
}

// attention is causal self-attention on ln_1's output b.ln, written as the steps a
// student draws: q, k, v; the scores q·kᵀ/√HS with the future masked; the pattern (a
// softmax of each row); z, the pattern's weighted sum of values; each head's z through
// its rows of attn.c_proj. It leaves attn.c_proj's output in b.attnOut.
//
// In a cached step the T new queries attend over K = pos0+T keys: the cached ones and
// their own, which are appended to the cache after hook_k and hook_v have run (so a hook
// that changes them changes what every later step reads).
func (r *hookRun) attention(l int, p string, b *hookedBuffers, w *Block) {
	cfg := r.m.Config
	B, T, C, NH := r.B, r.T, cfg.Channels, cfg.Heads
	N, HS, K := B*T, C/NH, r.keys()
	round := r.m.rounder()

	// q|k|v side by side, then each into its own (B, T, NH, HS) tensor.
	matmulForward(b.qkv, b.ln, w.CAttnW, w.CAttnB, N, C, 3*C)
	round(b.qkv)
	for n := 0; n < N; n++ {
		copy(b.q[n*C:(n+1)*C], b.qkv[n*3*C:n*3*C+C])
		copy(b.k[n*C:(n+1)*C], b.qkv[n*3*C+C:n*3*C+2*C])
		copy(b.v[n*C:(n+1)*C], b.qkv[n*3*C+2*C:n*3*C+3*C])
	}
	r.at(p+"hook_q", b.q)
	r.at(p+"hook_k", b.k)
	r.at(p+"hook_v", b.v)

	// The keys and values each sequence's queries see, (K, C): its own, or the cache's.
	keys := func(bi int) (k, v []float32) { return b.k[bi*T*C : (bi+1)*T*C], b.v[bi*T*C : (bi+1)*T*C] }
	if r.kv != nil {
		kc, vc := r.kv.full(l)
		copy(kc[r.pos0*C:K*C], b.k)
		copy(vc[r.pos0*C:K*C], b.v)
		keys = func(int) (k, v []float32) { return kc[:K*C], vc[:K*C] }
	}

	// scores = q·kᵀ/√HS for each sequence and head, the future set to −Inf: the query
	// at position pos0+t sees the keys 0 … pos0+t.
	scale := float32(1 / math.Sqrt(float64(HS)))
	for bi := 0; bi < B; bi++ {
		k, _ := keys(bi)
		for h := 0; h < NH; h++ {
			headRows(b.hq, b.q[bi*T*C:], h, T, HS, C)
			headRows(b.hk, k, h, K, HS, C)
			transpose(b.hkT, b.hk, K, HS)
			s := b.scores[(bi*NH+h)*T*K : (bi*NH+h+1)*T*K] // (T, K)
			matmulForward(s, b.hq, b.hkT, nil, T, HS, K)
			for t := 0; t < T; t++ {
				for j := 0; j < K; j++ {
					if j > r.pos0+t {
						s[t*K+j] = float32(math.Inf(-1))
					} else {
						s[t*K+j] *= scale
					}
				}
			}
		}
	}
	r.at(p+"hook_attn_scores", b.scores)

	// pattern = softmax of each row of scores.
	for row := 0; row < B*NH*T; row++ {
		softmaxRow(b.pattern[row*K:(row+1)*K], b.scores[row*K:(row+1)*K])
	}
	r.at(p+"hook_pattern", b.pattern)

	// z = pattern · v, for each sequence and head.
	for bi := 0; bi < B; bi++ {
		_, v := keys(bi)
		for h := 0; h < NH; h++ {
			headRows(b.hv, v, h, K, HS, C)
			matmulForward(b.hz, b.pattern[(bi*NH+h)*T*K:(bi*NH+h+1)*T*K], b.hv, nil, T, K, HS)
			putHeadRows(b.z[bi*T*C:], b.hz, h, T, HS, C)
		}
	}
	round(b.z)
	r.at(p+"hook_z", b.z)

	// attn.c_proj: with hook_result asked for, each head's z through its HS rows of the
	// weight, then the sum over heads plus the bias; otherwise one product, z·W + bias.
	if !r.wants(p + "hook_result") {
		matmulForward(b.attnOut, b.z, w.AttnCProjW, w.AttnCProjB, N, C, C)
		round(b.attnOut)
		return
	}
	if b.result == nil {
		b.result = make([]float32, N*NH*C) // (B, T, NH, C)
	}
	for h := 0; h < NH; h++ {
		headRows(b.hzAll, b.z, h, N, HS, C)
		matmulForward(b.hres, b.hzAll, w.AttnCProjW[h*HS*C:(h+1)*HS*C], nil, N, HS, C)
		for n := 0; n < N; n++ {
			copy(b.result[(n*NH+h)*C:(n*NH+h+1)*C], b.hres[n*C:(n+1)*C])
		}
	}
	r.at(p+"hook_result", b.result)
	for n := 0; n < N; n++ {
		o := b.attnOut[n*C : (n+1)*C]
		copy(o, w.AttnCProjB)
		for h := 0; h < NH; h++ {
			for i, v := range b.result[(n*NH+h)*C : (n*NH+h+1)*C] {
				o[i] += v
			}
		}
	}
	round(b.attnOut)
}

// headRows copies head h's HS channels of n rows of x (n, C) into dst (n, HS).
func headRows(dst, x []float32, h, n, HS, C int) {
	for t := 0; t < n; t++ {
		copy(dst[t*HS:(t+1)*HS], x[t*C+h*HS:t*C+(h+1)*HS])
	}
}

// putHeadRows is the inverse of headRows: src (n, HS) into head h's channels of x (n, C).
func putHeadRows(x, src []float32, h, n, HS, C int) {
	for t := 0; t < n; t++ {
		copy(x[t*C+h*HS:t*C+(h+1)*HS], src[t*HS:(t+1)*HS])
	}
}

// transpose writes src (R, K) as dst (K, R).
func transpose(dst, src []float32, R, K int) {
	for i := 0; i < R; i++ {
		for j := 0; j < K; j++ {
			dst[j*R+i] = src[i*K+j]
		}
	}
}

// softmaxRow writes the softmax of scores into p (both one row): subtract the largest
// score so no exponential overflows, exponentiate (e^−Inf is 0: the mask), normalise.
func softmaxRow(p, scores []float32) {
	mx := math.Inf(-1)
	for _, s := range scores {
		mx = math.Max(mx, float64(s))
	}
	var sum float64
	for j, s := range scores {
		e := math.Exp(float64(s) - mx)
		p[j] = float32(e)
		sum += e
	}
	for j := range p {
		p[j] = float32(float64(p[j]) / sum)
	}
}

// embedRows writes each token's row of wte into tok and each position's row of wpe into
// pos, both (B, T, C), for positions pos0 … pos0+T-1, from the model's tables in its
// precision.
func (m *Model) embedRows(tok, pos []float32, ids []int, pos0, B, T int) {
	C := m.Config.Channels
	row := func(dst []float32, table []float32, table16 []uint16, i int) {
		if m.Precision == BF16 {
			for c, h := range table16[i*C : (i+1)*C] {
				dst[c] = bf16ToFloat32(h)
			}
			return
		}
		copy(dst, table[i*C:(i+1)*C])
	}
	var wte, wpe []float32
	var wte16, wpe16 []uint16
	if m.Precision == BF16 {
		wte16, wpe16 = m.w16.wte, m.w16.wpe
	} else {
		wte, wpe = m.Params.Wte, m.Params.Wpe
	}
	for n, id := range ids {
		row(tok[n*C:(n+1)*C], wte, wte16, id)
		row(pos[n*C:(n+1)*C], wpe, wpe16, pos0+n%T)
	}
}
