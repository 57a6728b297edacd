package gpt

import (
	"errors"
	"fmt"
	"html"
	"math"
	"slices"
	"strings"
	"time"
)

// Generation is a loop: forward the context, pick a token from the last position's logits,
// append it, repeat. The Generator is that loop as an object a notebook steps through, one
// token per Step, in one of two modes:
//
//   - uncached, as nanoGPT's generate does: every step forwards the whole context again;
//   - cached: the prompt is forwarded once (the prefill) and then only the newest token,
//     its keys and values appended to a KVCache, attending over the ones stored.
//
// Both modes see the same context at every step, so they pick the same greedy tokens and
// their logits differ only by the order of float additions (see CompareCaching).
//
// # Past the window
//
// The model sees at most Window tokens (BlockSize by default). When the sequence outgrows
// it, the oldest tokens are dropped so that Keep tokens remain, in both modes. A cached
// loop cannot just drop the oldest key and value: every later key and value was computed
// by attending to the dropped token, at a position that has now shifted, so the whole
// cache is stale. The Generator therefore empties the cache and re-prefills the kept
// window, never using a stale entry. Keep = Window (the default) slides the window by one
// token, exactly as nanoGPT's idx[:, -block_size:]: past the block every cached step is a
// full re-prefill. A smaller Keep (say Window/2) refills once every Window-Keep tokens, at
// the price of a shorter context right after each crop; the uncached loop then sees the
// same shorter window.
//
// StaleCrop shows the bug this avoids: the cache is cropped by shifting out the oldest
// positions (KVCache.DropOldest) and only the newest token is forwarded, as a naive loop
// would. Nothing fails; the logits are just wrong from the first crop on (see CompareCrop).

// # Hooks
//
// With Hooks set, every step runs the hooked forward (RunWithHooks) in place of Forward,
// so a student can ablate a head and watch the text change. Uncached, each step's hooks
// see the whole context, (1, T, …) and scores and pattern (1, NH, T, T). Cached, the
// prefill is one hooked forward of the prompt, and each later step's hooks see only the
// new position: (1, 1, …) for the stream, q, k, v, z and the MLP, and (1, NH, 1, pos0+1)
// for the scores and the pattern — the new query's row over every cached key. hook_k and
// hook_v see the new position's key and value before they enter the cache, so changing
// them changes what every later step attends to. A hook that works position by position
// (ablating a head's z, say) picks the same tokens cached and uncached; one that reads a
// whole (T, T) pattern sees it a row at a time when cached. A crop of the window
// re-prefills, running the hooks over the kept window again.

// ErrStopped is returned by Step after the end token was drawn.
var ErrStopped = errors.New("gpt: generate: stopped at the end token")

// ErrClosed is returned by Step after Close.
var ErrClosed = errors.New("gpt: generate: the generator was closed")

// LanguageModel is what an uncached generation loop needs from a model: the logits (V) of
// the token after a context. *Model is one; the seed's GenerateText and GenerateChan take
// any.
type LanguageModel interface {
	NextLogits(context []int) ([]float32, error)
}

// NextLogits forwards the context (T ≤ BlockSize ids) and returns the logits (V) of the
// token after it: one uncached generation step.
func (m *Model) NextLogits(context []int) ([]float32, error) {
	out, err := m.Forward([][]int{context}, nil)
	if err != nil {
		return nil, err
	}
	return out.Row(0, 0), nil
}

// Generator steps through generation one token at a time. Make one with NewGenerator,
// adjust the exported fields if needed, then call Step. It is not safe for concurrent use,
// and neither is its Model.
type Generator struct {
	Model   *Model  // the model; nil when generating over another LanguageModel (uncached only)
	Policy  Policy  // how tokens are picked; printed with every output
	Cached  bool    // use a KV cache (needs Model)
	Window  int     // most tokens the model sees at once, ≤ BlockSize; default BlockSize
	Keep    int     // tokens left after a crop, 1…Window; default Window (slide by one, as nanoGPT)
	TopN    int     // candidates listed in each Step's Top; default 5
	EndID   int     // stop after drawing this token; -1 (the default) never stops
	Decoder Decoder // optional: shows token text in HTML and Text

	// StaleCrop crops the cached window by shifting the cache instead of re-prefilling: the
	// stale-cache bug, for teaching (see "Past the window"). Only with Cached.
	StaleCrop bool

	// KeepLogits keeps every step's full logits (V floats) in History; otherwise only the
	// Step returned by Step carries them.
	KeepLogits bool

	// Hooks run at their hook points in every step's forward (see Hooks above); they need
	// Model.
	Hooks []Hook

	// Record names the activations a cached run keeps of every position it forwards, by
	// name or pattern ("**": every hook point), stitched at their absolute positions:
	// Recorded returns them as RunWithCache over the same tokens would. Only with Cached
	// and Model; a crop of the window starts the record afresh.
	Record   []string
	recorded []recordedStep // the record, one cached step at a time

	lm      LanguageModel
	sampler *Sampler
	ids     []int       // (n) the prompt, then the generated tokens
	prompt  int         // how many of ids are the prompt
	start   int         // the context is ids[start:]
	cache   *KVCache    // cached mode: keys and values of ids[start:len(ids)-1]
	until   int         // Reserve: the cache makes room for ids[start:until] at once
	total   int         // positions forwarded so far
	steps   []Step      // the history
	logits  []float32   // (V) the last step's logits, reused by every step
	scan    logitScan   // the step's one pass over its logits
	order   []int       // scratch: ids of the TopN candidates
	tops    []Candidate // the next steps' Top lists, cut from one slab
	stopped bool
	closed  bool // Close gave the cache back
	checked bool

	forwardTime time.Duration // the last step's forward, within its Time (MeasureDecodeStages)
}

// Step is one generated token and what it cost.
type Step struct {
	N         int        // 1 for the first generated token
	Token     int        // the token picked
	Prob      float64    // its probability in the distribution it was drawn from (after temperature, top-k, top-p); 1 for argmax
	ModelProb float64    // its probability in the model's own distribution (softmax at temperature 1)
	Kept      int        // tokens left to draw from after top-k and top-p
	Logits    []float32  // (V) the logits it was picked from: the Generator's buffer, overwritten by the next Step (copy it to keep it); in History, a copy with KeepLogits, else nil
	Top       Candidates // the TopN most probable tokens at temperature 1

	Context    int           // tokens the model saw: the window ids[start:]
	Forwarded  int           // positions pushed through the stack in this step
	Total      int           // positions pushed through the stack so far
	Cropped    bool          // the window moved in this step (cached: the cache was emptied and refilled)
	CacheLen   int           // positions held in the KV cache after this step; 0 uncached
	CacheBytes int           // bytes of the KV cache when full (KVCache.Bytes); 0 uncached
	End        bool          // Token is the end token; the generator has stopped
	Time       time.Duration // wall time of the step
}

// String prints the step on one line: the token and its probabilities, then what it cost.
func (s Step) String() string {
	crop := ""
	if s.Cropped {
		crop = " (window moved)"
	}
	return fmt.Sprintf("step %d: token %d (p %.3f, model %.3f, %d kept); context %d%s, forwarded %d, total %s; cache %d positions, %s; %v",
		s.N, s.Token, s.Prob, s.ModelProb, s.Kept, s.Context, crop, s.Forwarded, Commas(s.Total), s.CacheLen, MB(s.CacheBytes), s.Time.Round(time.Microsecond))
}

// NewGenerator starts a generator over m from the prompt ids. The policy is checked here.
func NewGenerator(m *Model, prompt []int, p Policy, cached bool) (*Generator, error) {
	if m == nil {
		return nil, fmt.Errorf("gpt: generator: nil model")
	}
	g, err := newGenerator(m, prompt, p)
	if err != nil {
		return nil, err
	}
	g.Model, g.Cached, g.Window = m, cached, m.Config.BlockSize
	return g, nil
}

// newGenerator is NewGenerator over any LanguageModel, uncached; the caller sets Window.
func newGenerator(lm LanguageModel, prompt []int, p Policy) (*Generator, error) {
	if len(prompt) == 0 {
		return nil, fmt.Errorf("gpt: generator: empty prompt (GPT-2 starts from its end-of-text token, 50256)")
	}
	s, err := NewSampler(p)
	if err != nil {
		return nil, err
	}
	return &Generator{Policy: p, EndID: -1, TopN: 5, lm: lm, sampler: s,
		ids: append([]int(nil), prompt...), prompt: len(prompt)}, nil
}

// SetPolicy changes how the next tokens are picked, keeping everything generated so far and
// the cache: the sampler restarts from the new policy's seed. A policy that does not validate
// is an error and changes nothing.
func (g *Generator) SetPolicy(p Policy) error {
	s, err := NewSampler(p)
	if err != nil {
		return fmt.Errorf("gpt: generator: %w", err)
	}
	g.Policy, g.sampler = p, s
	return nil
}

// check validates the settings once, before the first step.
func (g *Generator) check() error {
	if g.checked {
		return nil
	}
	if g.Cached && g.Model == nil {
		return fmt.Errorf("gpt: generator: the cached mode needs a *Model")
	}
	if len(g.Hooks) > 0 {
		if g.Model == nil {
			return fmt.Errorf("gpt: generator: hooks need a *Model")
		}
		if err := checkHookNames(g.Model.Config, "generator", g.Hooks); err != nil {
			return err
		}
	}
	if len(g.Record) > 0 {
		if !g.Cached || g.Model == nil {
			return fmt.Errorf("gpt: generator: Record needs the cached mode and a *Model")
		}
		for _, p := range g.Record {
			if !matchAny(p, HookNames(g.Model.Config)) {
				return fmt.Errorf("gpt: generator: Record %q matches no hook point (see gpt.HookNames)", p)
			}
		}
	}
	if g.Model != nil && g.Window > g.Model.Config.BlockSize {
		return fmt.Errorf("gpt: generator: window %d is longer than the block size %d", g.Window, g.Model.Config.BlockSize)
	}
	if g.Window <= 0 {
		return fmt.Errorf("gpt: generator: window %d, want ≥ 1", g.Window)
	}
	if g.Keep == 0 {
		g.Keep = g.Window
	}
	if g.Keep < 1 || g.Keep > g.Window {
		return fmt.Errorf("gpt: generator: keep %d, want 1…%d (the window)", g.Keep, g.Window)
	}
	if g.Policy != g.sampler.Policy { // changed after NewGenerator, before the first step
		s, err := NewSampler(g.Policy)
		if err != nil {
			return err
		}
		g.sampler = s
	}
	g.checked = true
	return nil
}

// Step generates one token.
func (g *Generator) Step() (Step, error) {
	if err := g.check(); err != nil {
		return Step{}, err
	}
	if g.closed {
		return Step{}, ErrClosed
	}
	if g.stopped {
		return Step{}, ErrStopped
	}
	began := time.Now()
	n := len(g.ids)
	start := g.start
	if n-start > g.Window { // the context outgrew the window: keep the newest Keep tokens
		start = n - g.Keep
	}
	st := Step{N: len(g.steps) + 1, Cropped: start != g.start, Context: n - start}

	var logits []float32
	var err error
	forwardBegan := time.Now()
	switch {
	case g.Cached:
		logits, st.Forwarded, err = g.forwardCached(start)
	case len(g.Hooks) > 0:
		var out *Output
		if out, err = g.Model.RunWithHooks(g.ids[start:], g.Hooks...); err == nil {
			logits = out.Row(0, out.T-1)
		}
		st.Forwarded = n - start
	default:
		logits, err = g.lm.NextLogits(g.ids[start:])
		st.Forwarded = n - start
	}
	g.forwardTime = time.Since(forwardBegan)
	if err != nil {
		return Step{}, fmt.Errorf("gpt: generate: step %d: %w", st.N, err)
	}
	g.start = start
	g.total += st.Forwarded
	st.Total = g.total
	if g.cache != nil {
		st.CacheLen, st.CacheBytes = g.cache.Len(), g.cache.Bytes()
	}

	// One pass over the logits (see logitScan) serves the sampler, the model's own
	// distribution (temperature 1) for the chosen token, and the top few.
	if err := g.scan.of("sample", logits); err != nil {
		return Step{}, fmt.Errorf("gpt: generate: step %d: %w", st.N, err)
	}
	c := g.sampler.pick(logits, &g.scan)
	st.Token, st.Prob, st.Kept = c.ID, c.Prob, c.Kept
	st.Logits = g.ownLogits(logits)
	mx := logits[g.scan.argmax]
	sum := g.scan.softmaxSum(logits)
	prob := func(id int) float64 { return math.Exp(float64(logits[id])-float64(mx)) / sum }
	st.ModelProb = prob(c.ID)
	g.order = g.scan.top(g.order, logits, g.TopN)
	st.Top = g.candidates(len(g.order))
	for i, id := range g.order {
		st.Top[i] = Candidate{Rank: i + 1, ID: id, Logit: logits[id], Prob: prob(id)}
	}
	g.ids = append(g.ids, c.ID)
	if c.ID == g.EndID {
		st.End, g.stopped = true, true
	}
	st.Time = time.Since(began)

	kept := st
	kept.Logits = nil
	if g.KeepLogits {
		kept.Logits = slices.Clone(logits)
	}
	g.steps = append(g.steps, kept)
	return st, nil
}

// ownLogits returns logits in g's buffer, copying them there unless the forward wrote them
// there (the plain cached step does): the paths that return logits of their own may reuse
// them, and a step reusing one buffer allocates nothing.
func (g *Generator) ownLogits(logits []float32) []float32 {
	if len(g.logits) == len(logits) && &g.logits[0] == &logits[0] {
		return logits
	}
	g.logits = append(g.logits[:0], logits...)
	return g.logits
}

// logitsBuffer is g's buffer for V logits.
func (g *Generator) logitsBuffer(V int) []float32 {
	if len(g.logits) != V {
		g.logits = make([]float32, V)
	}
	return g.logits
}

// candidates returns room for the n candidates of one step's Top, cut from a slab that
// holds many steps' (each step's Top stays in History, so the slab is never reused).
func (g *Generator) candidates(n int) Candidates {
	if len(g.tops) < n {
		g.tops = make([]Candidate, max(n, 256*g.TopN))
	}
	top := g.tops[:n:n]
	g.tops = g.tops[n:]
	return top
}

// forwardCached brings the cache up to date with the context ids[start:] and returns the
// logits of its last position and how many positions it forwarded: the whole window when
// the cache is empty or the window moved (a re-prefill), otherwise only the newest token.
func (g *Generator) forwardCached(start int) ([]float32, int, error) {
	m := g.Model
	if g.cache == nil {
		g.cache = m.takeSpare()
	}
	n := len(g.ids)
	if g.until > n { // Reserve: room for every position to come, at most the window
		g.cache.reserve(min(g.Window, g.until-start))
	}
	forward := func(c *KVCache, ids []int) ([]float32, error) {
		if err := m.checkCached("forward cached", c, ids); err != nil {
			return nil, err
		}
		return m.forwardCached(g.logitsBuffer(m.Config.VocabSize), c, ids), nil
	}
	if len(g.Hooks) > 0 || len(g.Record) > 0 {
		forward = func(c *KVCache, ids []int) ([]float32, error) {
			var keep func(string) bool
			if len(g.Record) > 0 {
				keep = func(name string) bool { return matchedByAny(name, g.Record) }
			}
			pos0 := c.Len()
			logits, step, err := m.forwardCachedHooked(c, ids, g.Hooks, keep)
			if err == nil && step != nil {
				g.record(pos0, step)
			}
			return logits, err
		}
	}
	if start != g.start && g.StaleCrop && g.cache.Len() > 0 {
		// The bug: drop the oldest keys and values as they are, forward the newest token.
		if err := g.cache.DropOldest(start - g.start); err != nil {
			return nil, 0, err
		}
		logits, err := forward(g.cache, g.ids[n-1:])
		return logits, 1, err
	}
	if start != g.start || g.cache.Len() == 0 {
		g.cache.Reset()
		logits, err := forward(g.cache, g.ids[start:])
		return logits, n - start, err
	}
	if g.cache.Len() != n-1-start {
		return nil, 0, fmt.Errorf("gpt: generate: cache holds %d positions, the context before the newest token has %d", g.cache.Len(), n-1-start)
	}
	logits, err := forward(g.cache, g.ids[n-1:])
	return logits, 1, err
}

// Steps generates up to n tokens, stopping early after the end token. Each step it
// returns has its logits to itself (a copy: Step reuses one buffer). It reserves room for
// the n tokens first (Reserve).
func (g *Generator) Steps(n int) ([]Step, error) {
	g.Reserve(n)
	var out []Step
	for i := 0; i < n && !g.stopped; i++ {
		s, err := g.Step()
		if err != nil {
			return out, err
		}
		s.Logits = slices.Clone(s.Logits)
		out = append(out, s)
	}
	return out, nil
}

// Reserve tells the Generator that n more tokens are to come, so that the cached mode makes
// room in its cache for all of them at once: for the context so far and n-1 more positions
// (the last token drawn is never forwarded), at most the window. Otherwise the cache
// doubles as it fills — 64, 128, 256, 512 positions for 256 tokens — copying what it holds
// each time and leaving the old slabs as garbage (33 MB of them in a 256-token run of Small
// in fp32). Steps reserves for its tokens; call Reserve before a loop of Step. Uncached, it
// does nothing.
func (g *Generator) Reserve(n int) {
	g.until = max(g.until, len(g.ids)+n-1)
}

// Close gives the Generator's KV cache back to its model, which keeps it for the next
// Generator over the model (see "The spare" in kvcache.go): made once, a cache then serves
// run after run, and a run allocates nothing for it. Close a cached Generator when done
// with it. The tokens, the history and the HTML stay; Step returns ErrClosed, and Cache
// returns nil (a cache kept from it is left empty). Closing twice does nothing.
func (g *Generator) Close() {
	if g.cache != nil {
		g.Model.keepSpare(g.cache)
		g.cache = nil
	}
	g.closed = true
}

// Tokens returns every id so far: the prompt, then the generated tokens.
func (g *Generator) Tokens() []int { return append([]int(nil), g.ids...) }

// Generated returns the generated ids only.
func (g *Generator) Generated() []int { return append([]int(nil), g.ids[g.prompt:]...) }

// History returns the steps taken so far.
func (g *Generator) History() []Step { return g.steps }

// Positions is how many positions have been pushed through the stack so far.
func (g *Generator) Positions() int { return g.total }

// Cache is the KV cache of the cached mode (nil before the first step, after Close, or
// uncached).
func (g *Generator) Cache() *KVCache { return g.cache }

// Stopped reports whether the end token was drawn.
func (g *Generator) Stopped() bool { return g.stopped }

// Text decodes the prompt and the generated tokens with d (g.Decoder when d is nil).
func (g *Generator) Text(d Decoder) string {
	if d == nil {
		d = g.Decoder
	}
	if d == nil {
		return fmt.Sprint(g.ids)
	}
	return d.Decode(g.ids)
}

// Mode describes the loop: "cached" or "uncached", the window and the crop.
func (g *Generator) Mode() string {
	mode := "uncached"
	if g.Cached {
		mode = "cached"
	}
	keep := g.Keep
	if keep == 0 {
		keep = g.Window
	}
	hooks := ""
	if len(g.Hooks) > 0 {
		var names []string
		for _, h := range g.Hooks {
			names = append(names, h.Name)
		}
		hooks = ", hooks at " + strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s, window %d, keep %d after a crop%s", mode, g.Window, keep, hooks)
}

// String prints the policy, the mode and the text so far (ids without a Decoder).
func (g *Generator) String() string {
	return fmt.Sprintf("[%s; %s]\n%s", g.Policy, g.Mode(), g.Text(nil))
}

// HTML renders the policy, the mode, the text and one table row per step.
func (g *Generator) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<p><b>policy</b>: %s; <b>mode</b>: %s; %d prompt tokens, %d generated, %s positions forwarded</p>",
		html.EscapeString(g.Policy.String()), html.EscapeString(g.Mode()), g.prompt, len(g.ids)-g.prompt, Commas(g.total))
	if g.Decoder != nil {
		fmt.Fprintf(&b, "<pre>%s<b>%s</b></pre>", html.EscapeString(g.Decoder.Decode(g.ids[:g.prompt])),
			html.EscapeString(g.Decoder.Decode(g.ids[g.prompt:])))
	}
	b.WriteString("<table><tr><th>step</th><th>token</th><th>p (policy)</th><th>p (model)</th><th>kept</th>" +
		"<th>context</th><th>forwarded</th><th>total</th><th>cache</th><th>cache bytes</th><th>top candidates</th><th>ms</th></tr>")
	for _, s := range g.steps {
		crop := ""
		if s.Cropped {
			crop = " (crop)"
		}
		fmt.Fprintf(&b, "<tr><td>%d</td><td>%s</td><td>%.3f</td><td>%.3f</td><td>%d</td><td>%d%s</td><td>%d</td><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>%.1f</td></tr>",
			s.N, g.tokenHTML(s.Token), s.Prob, s.ModelProb, s.Kept, s.Context, crop, s.Forwarded, Commas(s.Total),
			s.CacheLen, Commas(s.CacheBytes), g.topHTML(s.Top), float64(s.Time.Microseconds())/1000)
	}
	b.WriteString("</table>")
	return b.String()
}

func (g *Generator) tokenHTML(id int) string {
	if g.Decoder == nil {
		return fmt.Sprint(id)
	}
	return fmt.Sprintf("%s %d", quotedHTML(g.Decoder, id), id)
}

func (g *Generator) topHTML(cs Candidates) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s %.1f%%", g.tokenHTML(c.ID), 100*c.Prob))
	}
	return strings.Join(parts, ", ")
}
