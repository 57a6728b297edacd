package gpt

import (
	"fmt"
	"strings"
)

// The parameters of a GPT-2 live in one []float32, laid out in the order of a Hugging Face
// checkpoint: wte, wpe, then for each block h.N.ln_1, attn.c_attn, attn.c_proj, ln_2,
// mlp.c_fc, mlp.c_proj, and last ln_f. Every named field below is a view into that slab.
// Matrices keep the checkpoint's Conv1D layout, [in, out], so loading one is a copy.

// Block holds the views of one transformer block's parameters.
type Block struct {
	Ln1W, Ln1B []float32 // h.N.ln_1.weight, .bias: (C)
	CAttnW     []float32 // h.N.attn.c_attn.weight: (C, 3*C), q|k|v side by side
	CAttnB     []float32 // h.N.attn.c_attn.bias: (3*C)
	AttnCProjW []float32 // h.N.attn.c_proj.weight: (C, C)
	AttnCProjB []float32 // h.N.attn.c_proj.bias: (C)
	Ln2W, Ln2B []float32 // h.N.ln_2.weight, .bias: (C)
	CFcW       []float32 // h.N.mlp.c_fc.weight: (C, 4*C)
	CFcB       []float32 // h.N.mlp.c_fc.bias: (4*C)
	MlpCProjW  []float32 // h.N.mlp.c_proj.weight: (4*C, C)
	MlpCProjB  []float32 // h.N.mlp.c_proj.bias: (C)

	// A BF16 model's block holds its four matrices here, as bfloat16 with the shapes above,
	// and the fp32 fields of the matrices are nil (bf16.go).
	cAttnW16, attnCProjW16, cFcW16, mlpCProjW16 []uint16
}

// headRowsOfCProj returns head h's rows of attn.c_proj's weight, (HS, C): the fp32 view, or
// the bf16 one (and a nil fp32 view) in a BF16 model, as conv1D takes them.
func (b *Block) headRowsOfCProj(h, HS, C int) ([]float32, []uint16) {
	lo, hi := h*HS*C, (h+1)*HS*C
	if b.AttnCProjW == nil {
		return nil, b.attnCProjW16[lo:hi]
	}
	return b.AttnCProjW[lo:hi], nil
}

// Params is the slab and its named views.
type Params struct {
	Data    []float32 // every parameter, in checkpoint order
	Wte     []float32 // wte.weight: (V, C), also the output layer (tied)
	Wpe     []float32 // wpe.weight: (BlockSize, C)
	H       []Block   // h.0 … h.(L-1)
	LnFW    []float32 // ln_f.weight: (C)
	LnFB    []float32 // ln_f.bias: (C)
	Tensors []Tensor  // every view with its checkpoint name and shape, in slab order
}

// Tensor names one view of the slab.
type Tensor struct {
	Name   string    // checkpoint key without the "transformer." prefix, e.g. "h.3.attn.c_attn.weight"
	Shape  []int     // e.g. [768 2304]
	Offset int       // index of its first number in the slab
	Data   []float32 // the view itself
}

// Size is the number of parameters in the tensor.
func (t Tensor) Size() int { return product(t.Shape) }

func product(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// Layout lists every parameter tensor of cfg in checkpoint order, with its offset into one
// slab. Data is left nil; NewParams points it into the slab.
func Layout(cfg Config) []Tensor {
	V, T, C := cfg.VocabSize, cfg.BlockSize, cfg.Channels
	var ts []Tensor
	off := 0
	add := func(name string, shape ...int) {
		ts = append(ts, Tensor{Name: name, Shape: shape, Offset: off})
		off += product(shape)
	}
	add("wte.weight", V, C)
	add("wpe.weight", T, C)
	for l := 0; l < cfg.Layers; l++ {
		p := fmt.Sprintf("h.%d.", l)
		add(p+"ln_1.weight", C)
		add(p+"ln_1.bias", C)
		add(p+"attn.c_attn.weight", C, 3*C)
		add(p+"attn.c_attn.bias", 3*C)
		add(p+"attn.c_proj.weight", C, C)
		add(p+"attn.c_proj.bias", C)
		if cfg.AttnOnly {
			continue // no ln_2, no MLP
		}
		add(p+"ln_2.weight", C)
		add(p+"ln_2.bias", C)
		add(p+"mlp.c_fc.weight", C, 4*C)
		add(p+"mlp.c_fc.bias", 4*C)
		add(p+"mlp.c_proj.weight", 4*C, C)
		add(p+"mlp.c_proj.bias", C)
	}
	add("ln_f.weight", C)
	add("ln_f.bias", C)
	return ts
}

// tensorsPerBlock is how many named tensors one block of c has in Layout: 12, or 6 in an
// attention-only model.
func (c Config) tensorsPerBlock() int {
	if c.AttnOnly {
		return 6
	}
	return 12
}

// NumParams counts the parameters of c with the output layer tied to wte, as GPT-2 does:
// 124,439,808 for Small.
func (c Config) NumParams() int {
	ts := Layout(c)
	last := ts[len(ts)-1]
	return last.Offset + last.Size()
}

// NumParamsUntied counts them as if the output layer had its own (V, C) matrix:
// 163,037,184 for Small.
func (c Config) NumParamsUntied() int { return c.NumParams() + c.VocabSize*c.Channels }

// NewParams allocates one zeroed slab for cfg and points the named views into it.
func NewParams(cfg Config) (*Params, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ts := Layout(cfg)
	last := ts[len(ts)-1]
	p := &Params{Data: make([]float32, last.Offset+last.Size()), Tensors: ts, H: make([]Block, cfg.Layers)}
	for i := range ts {
		lo, hi := ts[i].Offset, ts[i].Offset+ts[i].Size()
		ts[i].Data = p.Data[lo:hi:hi]
	}
	p.bind(cfg)
	return p, nil
}

// bind points the named fields at the tensors, which must be in Layout(cfg) order. An
// attention-only block's MLP fields stay nil.
func (p *Params) bind(cfg Config) {
	ts, per := p.Tensors, cfg.tensorsPerBlock()
	p.Wte, p.Wpe = ts[0].Data, ts[1].Data
	for l := range p.H {
		t := ts[2+per*l : 2+per*(l+1)]
		p.H[l] = Block{
			Ln1W: t[0].Data, Ln1B: t[1].Data,
			CAttnW: t[2].Data, CAttnB: t[3].Data,
			AttnCProjW: t[4].Data, AttnCProjB: t[5].Data,
		}
		if !cfg.AttnOnly {
			b := &p.H[l]
			b.Ln2W, b.Ln2B = t[6].Data, t[7].Data
			b.CFcW, b.CFcB = t[8].Data, t[9].Data
			b.MlpCProjW, b.MlpCProjB = t[10].Data, t[11].Data
		}
	}
	n := len(ts)
	p.LnFW, p.LnFB = ts[n-2].Data, ts[n-1].Data
}

// Tensor returns the view named like a checkpoint key ("h.3.attn.c_attn.weight"; a
// "transformer." prefix is ignored), or false.
func (p *Params) Tensor(name string) (Tensor, bool) {
	name = strings.TrimPrefix(name, "transformer.")
	for _, t := range p.Tensors {
		if t.Name == name {
			return t, true
		}
	}
	return Tensor{}, false
}

// Census groups the parameter count of a config the way the study talks about it: the two
// tables, the blocks, the final LayerNorm, and the share of the token table.
type Census struct {
	Config     Config
	Tied       int     // 124,439,808 for Small
	Untied     int     // 163,037,184 for Small
	TokenTable int     // V*C: 38,597,376 for Small
	TokenShare float64 // TokenTable/Tied: ≈0.31 for Small
	Positions  int     // BlockSize*C
	PerBlock   int     // parameters in one block: 7,087,872 for Small
	Blocks     int     // L*PerBlock
	FinalNorm  int     // 2*C
}

// Count takes the census of cfg.
func Count(cfg Config) Census {
	ts := Layout(cfg)
	perBlock := 0
	for _, t := range ts[2 : 2+cfg.tensorsPerBlock()] {
		perBlock += t.Size()
	}
	c := Census{
		Config:     cfg,
		Tied:       cfg.NumParams(),
		Untied:     cfg.NumParamsUntied(),
		TokenTable: cfg.VocabSize * cfg.Channels,
		Positions:  cfg.BlockSize * cfg.Channels,
		PerBlock:   perBlock,
		Blocks:     cfg.Layers * perBlock,
		FinalNorm:  2 * cfg.Channels,
	}
	c.TokenShare = float64(c.TokenTable) / float64(c.Tied)
	return c
}

// HTML renders the census as a table for a notebook cell.
func (c Census) HTML() string {
	var b strings.Builder
	row := func(name string, n int) {
		fmt.Fprintf(&b, "<tr><td>%s</td><td style=\"text-align:right\">%s</td></tr>", name, Commas(n))
	}
	b.WriteString("<table><tr><th>parameters</th><th>count</th></tr>")
	row("token table wte (V×C), tied to the output layer", c.TokenTable)
	row("position table wpe (block×C)", c.Positions)
	row(fmt.Sprintf("%d blocks × %s", c.Config.Layers, Commas(c.PerBlock)), c.Blocks)
	row("final LayerNorm ln_f", c.FinalNorm)
	row("<b>total, tied</b>", c.Tied)
	row("total if the output layer were untied", c.Untied)
	fmt.Fprintf(&b, "<tr><td>share of the token table (tied)</td><td style=\"text-align:right\">%.1f%%</td></tr></table>", 100*c.TokenShare)
	return b.String()
}

func (c Census) String() string {
	return fmt.Sprintf("%s: %s parameters tied, %s untied, token table %.1f%%",
		c.Config, Commas(c.Tied), Commas(c.Untied), 100*c.TokenShare)
}

// Commas writes n with thousands separators: 124439808 → "124,439,808".
func Commas(n int) string {
	if n < 0 {
		return "-" + Commas(-n)
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
