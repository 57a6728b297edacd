package gpt

import (
	"errors"
	"fmt"
	"iter"
	"runtime"
	"strconv"
	"strings"
)

// A forward you step through. m.Stepper(ids) plans the forward pass of one sequence as a
// list of ops, each producing one activation, and s.Next() performs the next one:
//
//	hook_embed, hook_pos_embed, blocks.0.hook_resid_pre      the embeddings and their sum
//	per block l:
//	  ln1.hook_scale, ln1.hook_normalized, ln1.out            ln_1: scale, normalize, affine
//	  attn.hook_q, attn.hook_k, attn.hook_v                   the three column blocks of c_attn
//	  attn.scores, attn.hook_attn_scores                      q·kᵀ/√HS, then the causal mask
//	  attn.hook_pattern, attn.hook_z                          softmax, the weighted sum of values
//	  attn.hook_result, hook_attn_out                         each head's slice of c_proj, their sum
//	  hook_resid_mid                                          the first residual add
//	  ln2.hook_scale, ln2.hook_normalized, ln2.out            ln_2
//	  mlp.hook_pre, mlp.hook_post, hook_mlp_out               c_fc, GELU, c_proj
//	  hook_resid_post                                         the second residual add
//	ln_final.hook_scale, ln_final.hook_normalized, ln_final.out, logits
//
// The list is the table of hookpoints.go read in order: every row with a label is an op.
// Every name is a hook point (TransformerLens's name for the same tensor) except the rows
// the table marks as the Stepper's own, because TransformerLens has no hook there:
// blocks.l.ln1.out, blocks.l.ln2.out and ln_final.out are LayerNorm's output after its
// weight and bias; blocks.l.attn.scores are the scaled dot products before the mask (the
// hook point blocks.l.attn.hook_attn_scores is taken after it, as in TransformerLens).
// blocks.l.hook_resid_pre of a block l > 0 is no op of its own: it is the tensor
// blocks.(l-1).hook_resid_post, and RunTo accepts either name.
//
// The ops are the model's own: the Stepper runs the forward of run.go and pauses it after
// each op, where a hooked run calls its hooks. Each op reads the tensors earlier ops
// produced, not copies: a change to the current output (s.Output().Set(v, …) or its Data)
// reaches every later op. Run's logits equal ForwardAll's to a relative 1e-5
// (stepper_test.go). Not live.Stepper, which steps generation a token per click.

// Op is one step of a Stepper: the op it performed, its inputs and its output.
type Op struct {
	Index  int           // 0 for the first op of the forward
	Name   string        // the name of the output, e.g. "blocks.0.attn.hook_pattern"
	Layer  int           // the block, or -1 outside the blocks
	Label  string        // the op in a few words, e.g. "softmax"
	What   string        // one sentence: what it computes
	Inputs []*Activation // the activations (and weights) it read, e.g. [blocks.0.attn.hook_attn_scores]
	Output *Activation   // what it wrote; later ops read this very tensor
}

// String prints the op on one line: its index, output and inputs with their shapes, and
// what it computes.
func (op *Op) String() string {
	var in []string
	for _, a := range op.Inputs {
		in = append(in, fmt.Sprintf("%s %v", a.Name, a.Shape))
	}
	return fmt.Sprintf("%d %s %v ← %s: %s", op.Index, op.Name, op.Output.Shape, strings.Join(in, ", "), op.What)
}

// Stepper steps through the forward pass of one sequence, one op at a time; see
// Model.Stepper.
type Stepper struct {
	m    *Model
	ids  []int
	plan []planned // every op of the forward, in order
	next int       // index in plan of the op Next performs
	cur  *Op       // the op performed last; nil before the first

	pull   func() (*Op, bool) // resumes the forward until its next op
	logits *Activation
}

// planned is one op of the plan: its name, block and row of the table.
type planned struct {
	name  string
	layer int
	site  *hookSite
}

// Stepper plans the forward pass of one sequence of token ids (a cell passes
// tok.Encode(text)); nothing is computed until Next. A BF16 model is refused: its forward
// rounds every op's output to bfloat16, which the smaller steps here would round at other
// places; step through m.WithPrecision(FP32), which widens the same weights.
func (m *Model) Stepper(ids []int) (*Stepper, error) {
	if m.Precision == BF16 {
		return nil, fmt.Errorf("gpt: stepper: the model computes in bf16; step through m.WithPrecision(gpt.FP32), the same weights widened to fp32")
	}
	if _, _, err := m.checkBatch("stepper", [][]int{ids}, nil); err != nil {
		return nil, err
	}
	s := &Stepper{m: m, ids: append([]int(nil), ids...), plan: stepPlan(m.Config)}
	w := &stepWatch{m: m, ids: s.ids, plan: s.plan, seen: map[string]*Activation{}}
	next, stop := iter.Pull(w.ops)
	s.pull = next
	// A Stepper left half-way holds a paused forward; end it when the Stepper is dropped.
	runtime.AddCleanup(s, func(stop func()) { stop() }, stop)
	return s, nil
}

// stepPlan lists the ops of the forward of a model of cfg in the order they run: the rows
// of the table with a label, block by block.
func stepPlan(cfg Config) []planned {
	var p []planned
	add := func(l int, rows []hookSite) {
		for i := range rows {
			s := &rows[i]
			switch {
			case s.label == "", s.kind == optional && !s.isHook(cfg):
				continue // no op: c_attn's q|k|v, a hook point the config leaves off
			case l > 0 && s.name == "hook_resid_pre":
				continue // the previous block's hook_resid_post
			}
			p = append(p, planned{hookName(l, s.name), l, s})
		}
	}
	add(-1, hooksBefore)
	for l := 0; l < cfg.Layers; l++ {
		add(l, blockRows(cfg))
	}
	add(-1, hooksAfter)
	return p
}

// stepWatch is the Stepper's way of running the forward: a watcher (run.watch) that turns
// each op of the plan into an Op and pauses the forward there until the next Next.
type stepWatch struct {
	m    *Model
	ids  []int
	plan []planned
	i    int                    // the op the forward makes next
	seen map[string]*Activation // every tensor made so far, by name
	last *Activation            // the tensor made last
}

// errStopped ends a forward whose Stepper was dropped.
var errStopped = errors.New("gpt: stepper: stopped")

// ops runs the forward, yielding an Op after each op of the plan.
func (w *stepWatch) ops(yield func(*Op) bool) {
	defer func() {
		if p := recover(); p != nil && p != errStopped {
			panic(p)
		}
	}()
	cfg, T := w.m.Config, len(w.ids)
	w.seen["tokens"] = &Activation{Name: "tokens", Shape: []int{1, T}, Data: make([]float32, T)}
	w.seen["positions"] = &Activation{Name: "positions", Shape: []int{1, T}, Data: make([]float32, T)}
	for t, id := range w.ids {
		w.seen["tokens"].Data[t], w.seen["positions"].Data[t] = float32(id), float32(t)
	}
	a := newActivations(cfg, 1, T, true) // every block's tensors its own
	r := w.m.newRun(a, 1, T)
	r.fresh = true
	r.wants = func(int, string) bool { return true }
	r.watch = func(l int, site string, data []float32) {
		name := hookName(l, site)
		if w.i == len(w.plan) || w.plan[w.i].name != name {
			if sites[site].kind != internal {
				w.seen[name] = w.last // another name of the tensor made last
			}
			return
		}
		p := w.plan[w.i]
		out := &Activation{Name: name, Shape: p.site.point(l).Shape(cfg, 1, T), Data: data}
		op := &Op{Index: w.i, Name: name, Layer: l, Label: inBlock(p.site.label, l), What: p.site.opWhat,
			Inputs: w.inputs(p), Output: out}
		if op.What == "" {
			op.What = inBlock(p.site.what, l)
		}
		w.seen[name], w.last = out, out
		w.i++
		if !yield(op) {
			panic(errStopped)
		}
		if len(out.Data) > 0 && &out.Data[0] != &data[0] {
			copy(data, out.Data) // the cell assigned a new slice: its values are the change
		}
	}
	x := r.forward(w.ids)
	r.final(make([]float32, T*cfg.VocabSize), a.lnf, nil, nil, x, T)
}

// inBlock writes block l into a sentence of the table: "h.l.ln_1" → "h.3.ln_1".
func inBlock(s string, l int) string {
	return strings.ReplaceAll(s, "h.l.", "h."+strconv.Itoa(l)+".")
}

// inputs returns what op p reads: the tensors made before it, by the names in its row of
// the table, and the weights, by their checkpoint names.
func (w *stepWatch) inputs(p planned) []*Activation {
	cfg := w.m.Config
	C := cfg.Channels
	var in []*Activation
	for _, name := range strings.Fields(p.site.reads) {
		wname, isWeight := strings.CutPrefix(name, "w:")
		switch {
		case isWeight:
			in = append(in, w.weight(inBlock(wname, p.layer), p.layer, C))
		case name == "stream": // the stream leaving the last block
			in = append(in, w.seen[hookName(cfg.Layers-1, "hook_resid_post")])
		default: // the block's own tensor, else one from before the blocks
			a, ok := w.seen[hookName(p.layer, name)]
			if !ok {
				a = w.seen[name]
			}
			in = append(in, a)
		}
	}
	return in
}

// weight returns the parameter called name as an input of an op of block l: its view,
// or for c_attn's columns of q, k or v ("…c_attn.weight[q]") the (C, C) copy the op
// multiplies by, or the view of their C entries of the bias.
func (w *stepWatch) weight(name string, l, C int) *Activation {
	base, part := name, -1
	for i, s := range []string{"[q]", "[k]", "[v]"} {
		if b, ok := strings.CutSuffix(name, s); ok {
			base, part = b, i
		}
	}
	t, ok := w.m.Params.Tensor(base)
	switch {
	case !ok:
		panic("gpt: stepper: no parameter " + base) // the table names only the checkpoint's
	case part < 0:
		return &Activation{Name: base, Shape: t.Shape, Data: t.Data}
	case len(t.Shape) == 1: // the bias
		return &Activation{Name: fmt.Sprintf("%s[%d:%d]", base, part*C, (part+1)*C), Shape: []int{C}, Data: t.Data[part*C : (part+1)*C]}
	}
	wp, _ := w.m.Params.H[l].cAttnColumns(part, C)
	return &Activation{Name: fmt.Sprintf("%s[:, %d:%d]", base, part*C, (part+1)*C), Shape: []int{C, C}, Data: wp}
}

// Len returns the number of ops in the whole forward (3 + 20 per block + 4: 127 for the shipped model).
func (s *Stepper) Len() int { return len(s.plan) }

// Index returns the number of ops performed so far (0 … Len).
func (s *Stepper) Index() int { return s.next }

// Done reports whether every op has run; Logits is then ready.
func (s *Stepper) Done() bool { return s.next == len(s.plan) }

// Names returns the name of every op's output, in the order Next performs them.
func (s *Stepper) Names() []string {
	names := make([]string, len(s.plan))
	for i, p := range s.plan {
		names[i] = p.name
	}
	return names
}

// Peek returns the name of the op Next will perform, or "" when Done.
func (s *Stepper) Peek() string {
	if s.Done() {
		return ""
	}
	return s.plan[s.next].name
}

// Current returns the op performed last, or nil before the first Next.
func (s *Stepper) Current() *Op { return s.cur }

// Output returns the current op's output, the tensor later ops will read (nil before the
// first Next). Change it with Set or through Data to see what the change does downstream.
func (s *Stepper) Output() *Activation {
	if s.cur == nil {
		return nil
	}
	return s.cur.Output
}

// Next performs one op and returns it; once Done it returns nil.
func (s *Stepper) Next() *Op {
	if s.Done() {
		return nil
	}
	op, ok := s.pull()
	if !ok || op.Name != s.plan[s.next].name {
		panic(fmt.Sprintf("gpt: stepper: op %d of the forward is not %s, the plan's", s.next, s.plan[s.next].name))
	}
	s.next++
	s.cur = op
	if s.Done() {
		s.logits = op.Output
		s.pull() // let the forward return
	}
	return op
}

// RunTo performs ops up to and including the one whose output is name, and returns it.
// blocks.l.hook_resid_pre for l > 0 means blocks.(l-1).hook_resid_post. An op already
// performed, or a name the forward has not, is an error saying which ops remain.
func (s *Stepper) RunTo(name string) (*Op, error) {
	want := name
	var l int
	if n, err := fmt.Sscanf(name, "blocks.%d.hook_resid_pre", &l); n == 1 && err == nil && l > 0 && name == fmt.Sprintf("blocks.%d.hook_resid_pre", l) {
		want = fmt.Sprintf("blocks.%d.hook_resid_post", l-1)
	}
	at := -1
	for i, p := range s.plan {
		if p.name == want {
			at = i
		}
	}
	switch {
	case at < 0:
		return nil, fmt.Errorf("gpt: stepper: run to %q: no op of this forward makes it (see Names)", name)
	case at < s.next:
		return nil, fmt.Errorf("gpt: stepper: run to %q: already performed (op %d; the next is op %d, %s)", name, at, s.next, s.Peek())
	}
	for s.next <= at {
		s.Next()
	}
	return s.cur, nil
}

// Run performs every op left and returns the logits (1, T, V).
func (s *Stepper) Run() *Activation {
	for !s.Done() {
		s.Next()
	}
	return s.logits
}

// Logits returns the logits (1, T, V) once Done, else nil.
func (s *Stepper) Logits() *Activation { return s.logits }
