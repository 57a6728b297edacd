package gpt

import (
	"fmt"
	"math"
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
// Every name is a hook point of hookpoints.go (TransformerLens's name for the same tensor)
// except three kinds the Stepper names itself because TransformerLens has no hook there:
// blocks.l.ln1.out, blocks.l.ln2.out and ln_final.out are LayerNorm's output after its
// weight and bias; blocks.l.attn.scores are the scaled dot products before the mask (the
// hook point blocks.l.attn.hook_attn_scores is taken after it, as in TransformerLens).
// blocks.l.hook_resid_pre of a block l > 0 is no op of its own: it is the tensor
// blocks.(l-1).hook_resid_post, and RunTo accepts either name.
//
// Each op reads the tensors earlier ops produced, not copies: a change to the current
// output (s.Output().Set(v, …) or its Data) reaches every later op. The ops are the
// model's readable ones (layernorm.go, matmul.go, mlp.go, residual.go) with LayerNorm and
// attention broken into their steps as loops; Run's logits equal ForwardAll's to a
// relative 1e-5 (stepper_test.go). Not live.Stepper, which steps generation a token per
// click.

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

	// The tensors later ops read, (1, T, …): each op replaces its own.
	tokens, positions  *Activation // the input: ids and 0 … T-1, as (1, T)
	embed, posEmbed    *Activation
	resid              *Activation // the residual stream: resid_pre, resid_mid, resid_post
	scale, normalized  *Activation // the LayerNorm being stepped
	lnOut              *Activation
	q, k, v            *Activation
	scores, masked     *Activation // attn.scores, attn.hook_attn_scores
	pattern, z, result *Activation
	attnOut            *Activation
	pre, post, mlpOut  *Activation
	logits             *Activation
}

// planned is one op of the plan: its name, block, label and how to perform it.
type planned struct {
	name  string
	layer int
	label string
	run   func() *Op
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
	T := len(ids)
	s := &Stepper{m: m, ids: append([]int(nil), ids...)}
	s.tokens = &Activation{Name: "tokens", Shape: []int{1, T}, Data: make([]float32, T)}
	s.positions = &Activation{Name: "positions", Shape: []int{1, T}, Data: make([]float32, T)}
	for t, id := range ids {
		s.tokens.Data[t], s.positions.Data[t] = float32(id), float32(t)
	}
	s.plan = s.makePlan()
	return s, nil
}

// makePlan lists the ops of the forward in the order they run.
func (s *Stepper) makePlan() []planned {
	cfg := s.m.Config
	p := []planned{
		{"hook_embed", -1, "wte[token]", s.opEmbed},
		{"hook_pos_embed", -1, "wpe[position]", s.opPosEmbed},
		{"blocks.0.hook_resid_pre", 0, "embed + pos_embed", s.opEmbedAdd},
	}
	for l := 0; l < cfg.Layers; l++ {
		w := &s.m.Params.H[l]
		pre := fmt.Sprintf("blocks.%d.", l)
		ck := fmt.Sprintf("h.%d.", l)
		p = append(p, s.layernormOps(pre+"ln1.", ck+"ln_1", l, w.Ln1W, w.Ln1B)...)
		p = append(p,
			planned{pre + "attn.hook_q", l, "q = ln_1 · c_attn[:, q]", func() *Op { return s.opQKV(l, 0) }},
			planned{pre + "attn.hook_k", l, "k = ln_1 · c_attn[:, k]", func() *Op { return s.opQKV(l, 1) }},
			planned{pre + "attn.hook_v", l, "v = ln_1 · c_attn[:, v]", func() *Op { return s.opQKV(l, 2) }},
			planned{pre + "attn.scores", l, "q·kᵀ / √HS", func() *Op { return s.opScores(l) }},
			planned{pre + "attn.hook_attn_scores", l, "causal mask", func() *Op { return s.opMask(l) }},
			planned{pre + "attn.hook_pattern", l, "softmax", func() *Op { return s.opSoftmax(l) }},
			planned{pre + "attn.hook_z", l, "z = pattern · v", func() *Op { return s.opZ(l) }},
			planned{pre + "attn.hook_result", l, "z_h · c_proj[h]", func() *Op { return s.opResult(l) }},
			planned{pre + "hook_attn_out", l, "Σ_h result + bias", func() *Op { return s.opAttnOut(l) }},
			planned{pre + "hook_resid_mid", l, "resid_pre + attn_out", func() *Op { return s.opResidMid(l) }},
		)
		p = append(p, s.layernormOps(pre+"ln2.", ck+"ln_2", l, w.Ln2W, w.Ln2B)...)
		p = append(p,
			planned{pre + "mlp.hook_pre", l, "ln_2 · c_fc", func() *Op { return s.opFc(l) }},
			planned{pre + "mlp.hook_post", l, "GELU", func() *Op { return s.opGelu(l) }},
			planned{pre + "hook_mlp_out", l, "post · c_proj", func() *Op { return s.opMlpProj(l) }},
			planned{pre + "hook_resid_post", l, "resid_mid + mlp_out", func() *Op { return s.opResidPost(l) }},
		)
	}
	p = append(p, s.layernormOps("ln_final.", "ln_f", -1, s.m.Params.LnFW, s.m.Params.LnFB)...)
	p = append(p, planned{"logits", -1, "ln_f · wteᵀ", s.opLogits})
	return p
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
	p := s.plan[s.next]
	op := p.run()
	op.Index, op.Name, op.Layer, op.Label = s.next, p.name, p.layer, p.label
	op.Output.Name = p.name
	if op.What == "" {
		if hp, err := LookupHook(s.m.Config, p.name); err == nil {
			op.What = hp.What
		}
	}
	s.next++
	s.cur = op
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

// newAct makes a zeroed activation of the given shape (its name is set by Next).
func newAct(shape ...int) *Activation {
	return &Activation{Shape: shape, Data: make([]float32, product(shape))}
}

// weight wraps a parameter view (or a copy of part of one) as an input of an op.
func weight(name string, data []float32, shape ...int) *Activation {
	return &Activation{Name: name, Shape: shape, Data: data}
}

// dims returns T, C, NH and HS of the stepped sequence.
func (s *Stepper) dims() (T, C, NH, HS int) {
	cfg := s.m.Config
	return len(s.ids), cfg.Channels, cfg.Heads, cfg.Channels / cfg.Heads
}

// The embeddings.

func (s *Stepper) opEmbed() *Op {
	T, C, _, _ := s.dims()
	out := newAct(1, T, C)
	for t, id := range s.ids {
		copy(out.Data[t*C:(t+1)*C], s.m.Params.Wte[id*C:(id+1)*C])
	}
	s.embed = out
	return &Op{Inputs: []*Activation{s.tokens, weight("wte.weight", s.m.Params.Wte, s.m.Config.VocabSize, C)}, Output: out}
}

func (s *Stepper) opPosEmbed() *Op {
	T, C, _, _ := s.dims()
	out := newAct(1, T, C)
	copy(out.Data, s.m.Params.Wpe[:T*C])
	s.posEmbed = out
	return &Op{Inputs: []*Activation{s.positions, weight("wpe.weight", s.m.Params.Wpe, s.m.Config.BlockSize, C)}, Output: out}
}

func (s *Stepper) opEmbedAdd() *Op {
	T, C, _, _ := s.dims()
	out := newAct(1, T, C)
	residualForward(out.Data, s.embed.Data, s.posEmbed.Data, T*C)
	s.resid = out
	return &Op{Inputs: []*Activation{s.embed, s.posEmbed}, Output: out,
		What: "adds the token and position embeddings: the residual stream entering block 0"}
}

// LayerNorm in three ops: the scale, the normalized row, the affine weight and bias.

func (s *Stepper) layernormOps(pre, ckpt string, l int, w, b []float32) []planned {
	return []planned{
		{pre + "hook_scale", l, ckpt + ": scale", s.opScale},
		{pre + "hook_normalized", l, ckpt + ": normalize", s.opNormalize},
		{pre + "out", l, ckpt + ": weight, bias", func() *Op { return s.opAffine(ckpt, w, b) }},
	}
}

// opScale is √(variance + eps) of each position of the residual stream, (1, T, 1).
func (s *Stepper) opScale() *Op {
	T, C, _, _ := s.dims()
	out := newAct(1, T, 1)
	for t := 0; t < T; t++ {
		x := s.resid.Data[t*C : (t+1)*C]
		m := sum64(x) / float64(C)
		out.Data[t] = float32(math.Sqrt(sumSquaredDev64(x, m)/float64(C) + lnEps))
	}
	s.scale = out
	return &Op{Inputs: []*Activation{s.resid}, Output: out}
}

// opNormalize is (x − mean) / scale of each position, (1, T, C).
func (s *Stepper) opNormalize() *Op {
	T, C, _, _ := s.dims()
	out := newAct(1, T, C)
	for t := 0; t < T; t++ {
		x := s.resid.Data[t*C : (t+1)*C]
		m := float32(sum64(x) / float64(C))
		r := 1 / s.scale.Data[t]
		for i, v := range x {
			out.Data[t*C+i] = (v - m) * r
		}
	}
	s.normalized = out
	return &Op{Inputs: []*Activation{s.resid, s.scale}, Output: out}
}

// opAffine is normalized·weight + bias, LayerNorm's output, (1, T, C).
func (s *Stepper) opAffine(ckpt string, w, b []float32) *Op {
	T, C, _, _ := s.dims()
	out := newAct(1, T, C)
	for t := 0; t < T; t++ {
		for i := 0; i < C; i++ {
			out.Data[t*C+i] = s.normalized.Data[t*C+i]*w[i] + b[i]
		}
	}
	s.lnOut = out
	return &Op{Inputs: []*Activation{s.normalized, weight(ckpt+".weight", w, C), weight(ckpt+".bias", b, C)}, Output: out,
		What: "multiplies each channel of the normalized row by " + ckpt + "'s weight and adds its bias: " + ckpt + "'s output"}
}

// Attention, broken into its steps.

// opQKV is one column block of c_attn (0 queries, 1 keys, 2 values) applied to ln_1's
// output, (1, T, NH, HS): heads side by side, so the same numbers as (T, C).
func (s *Stepper) opQKV(l, part int) *Op {
	T, C, NH, HS := s.dims()
	w := &s.m.Params.H[l]
	wp := make([]float32, C*C) // (C, C): columns part·C … part·C+C-1 of c_attn.weight (C, 3C)
	for i := 0; i < C; i++ {
		copy(wp[i*C:(i+1)*C], w.CAttnW[i*3*C+part*C:i*3*C+part*C+C])
	}
	bp := w.CAttnB[part*C : (part+1)*C]
	out := newAct(1, T, NH, HS)
	matmulForward(out.Data, s.lnOut.Data, wp, bp, T, C, C)
	cols := fmt.Sprintf("[:, %d:%d]", part*C, (part+1)*C)
	in := []*Activation{s.lnOut,
		weight(fmt.Sprintf("h.%d.attn.c_attn.weight%s", l, cols), wp, C, C),
		weight(fmt.Sprintf("h.%d.attn.c_attn.bias[%d:%d]", l, part*C, (part+1)*C), bp, C)}
	switch part {
	case 0:
		s.q = out
	case 1:
		s.k = out
	default:
		s.v = out
	}
	return &Op{Inputs: in, Output: out}
}

// opScores is q·k/√HS for every head, query and key, before the mask, (1, NH, T, T).
func (s *Stepper) opScores(l int) *Op {
	T, C, NH, HS := s.dims()
	out := newAct(1, NH, T, T)
	scale := 1 / math.Sqrt(float64(HS))
	for h := 0; h < NH; h++ {
		for i := 0; i < T; i++ {
			qi := s.q.Data[i*C+h*HS : i*C+h*HS+HS]
			for j := 0; j < T; j++ {
				kj := s.k.Data[j*C+h*HS : j*C+h*HS+HS]
				var dot float64
				for d := range qi {
					dot += float64(qi[d]) * float64(kj[d])
				}
				out.Data[(h*T+i)*T+j] = float32(dot * scale)
			}
		}
	}
	s.scores = out
	return &Op{Inputs: []*Activation{s.q, s.k}, Output: out,
		What: "takes the dot product of every query with every key and divides by √HS (the future is masked next)"}
}

// opMask sets every score of a key after its query to −Inf, (1, NH, T, T).
func (s *Stepper) opMask(l int) *Op {
	T, _, NH, _ := s.dims()
	out := newAct(1, NH, T, T)
	copy(out.Data, s.scores.Data)
	for h := 0; h < NH; h++ {
		for i := 0; i < T; i++ {
			for j := i + 1; j < T; j++ {
				out.Data[(h*T+i)*T+j] = float32(math.Inf(-1))
			}
		}
	}
	s.masked = out
	return &Op{Inputs: []*Activation{s.scores}, Output: out,
		What: "sets the score of every key after its query (above the diagonal) to −Inf, so the softmax gives it weight 0"}
}

// opSoftmax turns each row of masked scores into weights summing to 1, (1, NH, T, T).
func (s *Stepper) opSoftmax(l int) *Op {
	T, _, NH, _ := s.dims()
	out := newAct(1, NH, T, T)
	p := make([]float64, T)
	for r := 0; r < NH*T; r++ {
		row := s.masked.Data[r*T : (r+1)*T]
		mx := math.Inf(-1)
		for _, x := range row {
			mx = math.Max(mx, float64(x))
		}
		var sum float64
		for j, x := range row {
			p[j] = math.Exp(float64(x) - mx)
			sum += p[j]
		}
		for j := range row {
			out.Data[r*T+j] = float32(p[j] / sum)
		}
	}
	s.pattern = out
	return &Op{Inputs: []*Activation{s.masked}, Output: out}
}

// opZ is each head's sum of values weighted by its pattern, (1, T, NH, HS).
func (s *Stepper) opZ(l int) *Op {
	T, C, NH, HS := s.dims()
	out := newAct(1, T, NH, HS)
	for h := 0; h < NH; h++ {
		for i := 0; i < T; i++ {
			for d := 0; d < HS; d++ {
				var acc float64
				for j := 0; j < T; j++ {
					acc += float64(s.pattern.Data[(h*T+i)*T+j]) * float64(s.v.Data[j*C+h*HS+d])
				}
				out.Data[i*C+h*HS+d] = float32(acc)
			}
		}
	}
	s.z = out
	return &Op{Inputs: []*Activation{s.pattern, s.v}, Output: out}
}

// opResult multiplies each head's z by its HS rows of attn.c_proj.weight, (1, T, NH, C).
func (s *Stepper) opResult(l int) *Op {
	T, C, NH, HS := s.dims()
	w := &s.m.Params.H[l]
	out := newAct(1, T, NH, C)
	zh := make([]float32, T*HS) // (T, HS): head h's z
	rh := make([]float32, T*C)  // (T, C): head h's result
	for h := 0; h < NH; h++ {
		for t := 0; t < T; t++ {
			copy(zh[t*HS:(t+1)*HS], s.z.Data[t*C+h*HS:t*C+h*HS+HS])
		}
		matmulForward(rh, zh, w.AttnCProjW[h*HS*C:(h+1)*HS*C], nil, T, HS, C)
		for t := 0; t < T; t++ {
			copy(out.Data[(t*NH+h)*C:(t*NH+h+1)*C], rh[t*C:(t+1)*C])
		}
	}
	s.result = out
	return &Op{Inputs: []*Activation{s.z, weight(fmt.Sprintf("h.%d.attn.c_proj.weight", l), w.AttnCProjW, C, C)}, Output: out}
}

// opAttnOut adds up the heads' results and c_proj's bias, (1, T, C).
func (s *Stepper) opAttnOut(l int) *Op {
	T, C, NH, _ := s.dims()
	b := s.m.Params.H[l].AttnCProjB
	out := newAct(1, T, C)
	for t := 0; t < T; t++ {
		for c := 0; c < C; c++ {
			acc := float64(b[c])
			for h := 0; h < NH; h++ {
				acc += float64(s.result.Data[(t*NH+h)*C+c])
			}
			out.Data[t*C+c] = float32(acc)
		}
	}
	s.attnOut = out
	return &Op{Inputs: []*Activation{s.result, weight(fmt.Sprintf("h.%d.attn.c_proj.bias", l), b, C)}, Output: out}
}

func (s *Stepper) opResidMid(l int) *Op {
	T, C, _, _ := s.dims()
	out := newAct(1, T, C)
	residualForward(out.Data, s.resid.Data, s.attnOut.Data, T*C)
	in := []*Activation{s.resid, s.attnOut}
	s.resid = out
	return &Op{Inputs: in, Output: out}
}

// The MLP.

func (s *Stepper) opFc(l int) *Op {
	T, C, _, _ := s.dims()
	w := &s.m.Params.H[l]
	out := newAct(1, T, 4*C)
	matmulForward(out.Data, s.lnOut.Data, w.CFcW, w.CFcB, T, C, 4*C)
	s.pre = out
	return &Op{Inputs: []*Activation{s.lnOut,
		weight(fmt.Sprintf("h.%d.mlp.c_fc.weight", l), w.CFcW, C, 4*C),
		weight(fmt.Sprintf("h.%d.mlp.c_fc.bias", l), w.CFcB, 4*C)}, Output: out}
}

func (s *Stepper) opGelu(l int) *Op {
	T, C, _, _ := s.dims()
	out := newAct(1, T, 4*C)
	geluForward(out.Data, s.pre.Data, T*4*C)
	s.post = out
	return &Op{Inputs: []*Activation{s.pre}, Output: out}
}

func (s *Stepper) opMlpProj(l int) *Op {
	T, C, _, _ := s.dims()
	w := &s.m.Params.H[l]
	out := newAct(1, T, C)
	matmulForward(out.Data, s.post.Data, w.MlpCProjW, w.MlpCProjB, T, 4*C, C)
	s.mlpOut = out
	return &Op{Inputs: []*Activation{s.post,
		weight(fmt.Sprintf("h.%d.mlp.c_proj.weight", l), w.MlpCProjW, 4*C, C),
		weight(fmt.Sprintf("h.%d.mlp.c_proj.bias", l), w.MlpCProjB, C)}, Output: out}
}

func (s *Stepper) opResidPost(l int) *Op {
	T, C, _, _ := s.dims()
	out := newAct(1, T, C)
	residualForward(out.Data, s.resid.Data, s.mlpOut.Data, T*C)
	in := []*Activation{s.resid, s.mlpOut}
	s.resid = out
	return &Op{Inputs: in, Output: out}
}

// opLogits multiplies ln_f's output by the transposed token table, (1, T, V).
func (s *Stepper) opLogits() *Op {
	T, C, _, _ := s.dims()
	V := s.m.Config.VocabSize
	out := newAct(1, T, V)
	logitsForward(out.Data, s.lnOut.Data, s.m.Params.Wte, T, C, V)
	s.logits = out
	return &Op{Inputs: []*Activation{s.lnOut, weight("wte.weight", s.m.Params.Wte, V, C)}, Output: out}
}
