package gpt

import (
	"fmt"
	"html"
	"os"
	"strings"
)

// ActivationCache holds the named activations of one hooked forward (RunWithCache), each
// a copy, in forward order.
//
// Sizes per position, in float32, for a model of C channels, NH heads and a sequence of T
// positions (GPT-2 small: C 768, NH 12):
//
//	(B, T, C)  names: resid_pre/mid/post, attn_out, mlp_out, normalized, q, k, v, z, embeddings
//	                                           4·C bytes        3 kB for GPT-2 small
//	(B, T, 1)  hook_scale                      4 bytes
//	(B, T, 4C) mlp.hook_pre, mlp.hook_post     16·C bytes       12 kB
//	(B, T, NH, C) attn.hook_result             4·NH·C bytes     36 kB
//	(B, NH, T, T) attn.hook_attn_scores, attn.hook_pattern
//	                                           4·NH·T bytes     48 kB at T = 1,024
//	(B, T, V)  logits                          4·V bytes        196 kB
//
// Everything, for all 12 blocks of GPT-2 small at 1,024 positions, is about 2.3 GB, over
// half of it scores and patterns. So by default RunWithCache keeps DefaultCacheNames: the
// residual stream at every stage, what attention and the MLP write to it, the pattern,
// z, the MLP's hidden layer after GELU and the LayerNorm scales — what the logit lens,
// direct logit attribution, the pattern of a layer and the residual stream need, about
// 80 kB per position per block at 1,024 positions (1 GB for GPT-2 small), 35 kB at 100.
// Ask for the others by name or pattern.
type ActivationCache struct {
	Config Config
	IDs    [][]int // (B, T) the tokens forwarded
	B, T   int

	names []string               // in forward order
	acts  map[string]*Activation // by name
	model *Model                 // the model that ran, for its ln_f and unembedding
}

// DefaultCacheNames are the patterns RunWithCache keeps when given none (see
// ActivationCache for why these).
var DefaultCacheNames = []string{
	"hook_embed", "hook_pos_embed",
	"blocks.*.hook_resid_pre", "blocks.*.ln1.hook_scale",
	"blocks.*.attn.hook_pattern", "blocks.*.attn.hook_z",
	"blocks.*.hook_attn_out", "blocks.*.hook_resid_mid", "blocks.*.ln2.hook_scale",
	"blocks.*.mlp.hook_post", "blocks.*.hook_mlp_out", "blocks.*.hook_resid_post",
	"ln_final.hook_scale", "ln_final.hook_normalized",
}

// present returns the patterns that match one of names at least: DefaultCacheNames or
// GradientNames less the MLP's, in an attention-only model.
func present(patterns, names []string) []string {
	var p []string
	for _, s := range patterns {
		if matchAny(s, names) {
			p = append(p, s)
		}
	}
	return p
}

// RunWithCache runs the model over one sequence of token ids, keeping a copy of every
// activation whose name matches one of names (names or patterns, see MatchHook; none
// means DefaultCacheNames, "**" means all). It returns the logits of every position
// (1, T, V), which equal ForwardAll's to a relative 1e-5, and the cache.
//
//	out, cache, err := m.RunWithCache(tok.Encode("The cat sat on the"))
//	pattern := cache.MustGet("blocks.0.attn.hook_pattern") // (1, NH, T, T)
func (m *Model) RunWithCache(ids []int, names ...string) (*Output, *ActivationCache, error) {
	const op = "run with cache"
	all := HookNames(m.Config)
	if len(names) == 0 {
		names = present(DefaultCacheNames, all)
	}
	for _, p := range names {
		if !matchAny(p, all) {
			if _, err := LookupHook(m.Config, p); err != nil && !strings.Contains(p, "*") {
				return nil, nil, fmt.Errorf("gpt: %s: %w", op, err)
			}
			return nil, nil, fmt.Errorf("gpt: %s: pattern %q matches no hook point (see gpt.HookNames)", op, p)
		}
	}
	keep := func(name string) bool { return matchedByAny(name, names) }
	return m.runHooked(op, [][]int{ids}, nil, keep)
}

// add appends a to the cache (the forward calls it in forward order).
func (c *ActivationCache) add(a *Activation) {
	c.names = append(c.names, a.Name)
	c.acts[a.Name] = a
}

// Names returns the names the cache holds, in forward order.
func (c *ActivationCache) Names() []string { return append([]string(nil), c.names...) }

// Get returns the activation called name, or an error that says whether the name is
// wrong or was not kept: "gpt: cache: blocks.0.attn.hook_q was not kept; ask
// RunWithCache for it by name or pattern".
func (c *ActivationCache) Get(name string) (*Activation, error) {
	if a, ok := c.acts[name]; ok {
		return a, nil
	}
	if _, err := LookupHook(c.Config, name); err != nil {
		return nil, fmt.Errorf("gpt: cache: %w", err)
	}
	return nil, fmt.Errorf("gpt: cache: %s was not kept; ask RunWithCache for it by name or pattern (it keeps DefaultCacheNames unless told)", name)
}

// MustGet is Get for a notebook cell: it panics with Get's error.
func (c *ActivationCache) MustGet(name string) *Activation {
	a, err := c.Get(name)
	if err != nil {
		panic(err)
	}
	return a
}

// Bytes is the memory the cached activations take: 4 bytes per value.
func (c *ActivationCache) Bytes() int {
	n := 0
	for _, a := range c.acts {
		n += 4 * len(a.Data)
	}
	return n
}

// String lists every activation on its own line (see Activation.String).
func (c *ActivationCache) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cache of %d activations, %s, over %d×%d tokens\n", len(c.names), MB(c.Bytes()), c.B, c.T)
	for _, n := range c.names {
		b.WriteString(c.acts[n].String())
		b.WriteByte('\n')
	}
	return b.String()
}

// HTML renders the cache as a table: name, shape, mean, standard deviation and norm of
// each activation (infinities, the masked scores, are left out of the statistics).
func (c *ActivationCache) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<p>%d activations, %s, over %d×%d tokens</p>", len(c.names), MB(c.Bytes()), c.B, c.T)
	b.WriteString("<table><tr><th>name</th><th>shape</th><th>mean</th><th>std</th><th>norm</th></tr>")
	for _, n := range c.names {
		a := c.acts[n]
		mean, std, norm := a.Stats()
		fmt.Fprintf(&b, "<tr><td><code>%s</code></td><td>%v</td><td>%.4g</td><td>%.4g</td><td>%.4g</td></tr>",
			html.EscapeString(n), a.Shape, mean, std, norm)
	}
	b.WriteString("</table>")
	return b.String()
}

// Save writes the cache as a safetensors file of float32 tensors, one per name, in
// forward order, so it loads beside TransformerLens's (safetensors.torch.load_file). The
// token ids are in the metadata as "ids".
func (c *ActivationCache) Save(path string) error {
	ts := make([]Tensor, len(c.names))
	for i, n := range c.names {
		a := c.acts[n]
		ts[i] = Tensor{Name: n, Shape: a.Shape, Data: a.Data}
	}
	meta := map[string]string{"ids": fmt.Sprint(c.IDs), "format": "pt"}
	return writeFileAtomic(path, func(f *os.File) error { return WriteSafetensors(f, ts, DtypeF32, meta) })
}

// Pattern returns the attention pattern of block layer, (B, NH, T, T): row t of head h
// is where the query at t looks, summing to 1 over keys 0…t.
func (c *ActivationCache) Pattern(layer int) (*Activation, error) {
	return c.Get(fmt.Sprintf("blocks.%d.attn.hook_pattern", layer))
}

// ResidualStream returns the residual stream before the first block and after every
// block, stacked as one activation "resid_stream" of shape (L+1, B, T, C): entry 0 is
// blocks.0.hook_resid_pre (the embeddings), entry l+1 is blocks.l.hook_resid_post.
func (c *ActivationCache) ResidualStream() (*Activation, error) {
	L, N, C := c.Config.Layers, c.B*c.T, c.Config.Channels
	out := &Activation{Name: "resid_stream", Shape: []int{L + 1, c.B, c.T, C}, Data: make([]float32, 0, (L+1)*N*C)}
	for l := -1; l < L; l++ {
		name := fmt.Sprintf("blocks.%d.hook_resid_post", l)
		if l < 0 {
			name = "blocks.0.hook_resid_pre"
		}
		a, err := c.Get(name)
		if err != nil {
			return nil, fmt.Errorf("gpt: residual stream: %w", err)
		}
		out.Data = append(out.Data, a.Data...)
	}
	return out, nil
}

// lnFinal applies ln_f (recomputing the mean and scale of each row) to x (N, C) in fp32.
func (c *ActivationCache) lnFinal(x []float32, N int) []float32 {
	w, b := c.model.finalNorm()
	out := make([]float32, len(x))
	layernormForward(out, nil, nil, x, w, b, N, c.Config.Channels)
	return out
}

// unembedRow returns row v of the token table (C) in fp32.
func (c *ActivationCache) unembedRow(v int) []float32 {
	C := c.Config.Channels
	if c.model.Precision == BF16 {
		row := make([]float32, C)
		for i, h := range c.model.w16.wte[v*C : (v+1)*C] {
			row[i] = bf16ToFloat32(h)
		}
		return row
	}
	return c.model.Params.Wte[v*C : (v+1)*C]
}

// sequence checks that the cache holds one sequence, as the helpers below read it.
func (c *ActivationCache) sequence(op string) error {
	if c.B != 1 {
		return fmt.Errorf("gpt: %s: the cache holds %d sequences; the helpers read one", op, c.B)
	}
	return nil
}

// checkPosition resolves a negative position from the end and checks it.
func (c *ActivationCache) checkPosition(op string, pos int) (int, error) {
	if pos < 0 {
		pos += c.T
	}
	if pos < 0 || pos >= c.T {
		return 0, fmt.Errorf("gpt: %s: position %d outside the %d positions", op, pos, c.T)
	}
	return pos, nil
}
