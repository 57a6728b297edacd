package check

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// The inputs of a check come from the shipped model (gpt.ShippedModelPath; the checker
// uses it even where a notebook runs GPT-2, so its verdicts read the same everywhere): a
// prompt of Go source the notebooks do not use, a block and a head. The draw is seeded by
// the op checked, so a check runs on the same case every time: the same function gets the
// same verdict on every run, in every session, and a borderline answer does not flip
// between right and "not yet" on re-runs. A tensor copied from a notebook's cache still does
// not pass, since no notebook runs these prompts.

// prompts are Go snippets none of the notebooks shows.
var prompts = []string{
	"for i, v := range values {\n\tif v > best {\n\t\tbest, at = v, i\n\t}\n}",
	"if err != nil {\n\treturn nil, fmt.Errorf(\"open %s: %w\", name, err)\n}",
	"type Stack struct {\n\titems []int\n}\n\nfunc (s *Stack) Push(x int) {",
	"scanner := bufio.NewScanner(os.Stdin)\nfor scanner.Scan() {\n\tline := scanner.Text()",
	"counts := make(map[string]int)\nfor _, w := range strings.Fields(text) {\n\tcounts[w]++",
	"func Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}",
}

// onceModel opens the model at path() the first time a check asks for it, and hands out that
// one model after.
type onceModel struct {
	path func() (string, error)
	once sync.Once
	m    *gpt.Model
	tok  *tokenizer.Tokenizer
	err  error
}

func (o *onceModel) open() (*gpt.Model, *tokenizer.Tokenizer, error) {
	o.once.Do(func() {
		path, err := o.path()
		if err != nil {
			o.err = err
			return
		}
		o.m, o.tok, o.err = gpt.Open(path)
	})
	return o.m, o.tok, o.err
}

var shippedModel = &onceModel{path: gpt.ShippedModelPath}

// shipped opens the shipped model once.
func shipped() (*gpt.Model, *tokenizer.Tokenizer, error) { return shippedModel.open() }

// pick is the case one check runs on.
type pick struct {
	m     *gpt.Model
	tok   *tokenizer.Tokenizer
	rng   *rand.Rand
	text  string // the prompt, cut to the positions used
	ids   []int  // (T)
	layer int
	head  int
}

// draw picks the case of the op checked: a prompt cut to 8 … 14 tokens, a block and a
// head, from a generator seeded by the op's name, so every call for op gets the same case.
func draw(op string) (*pick, error) {
	m, tok, err := shipped()
	if err != nil {
		return nil, fmt.Errorf("check: the checker needs the shipped model: %w", err)
	}
	h := fnv.New64a()
	h.Write([]byte(op))
	rng := rand.New(rand.NewPCG(16, h.Sum64()))
	ids := tok.Encode(prompts[rng.IntN(len(prompts))])
	ids = ids[:min(len(ids), 8+rng.IntN(7))]
	return &pick{m: m, tok: tok, rng: rng, text: tok.Decode(ids), ids: ids,
		layer: rng.IntN(m.Config.Layers), head: rng.IntN(m.Config.Heads)}, nil
}

// String names the case: `block 3, head 2, over the 11 tokens of "for i, v := range"`.
func (p *pick) String() string {
	return fmt.Sprintf("block %d, head %d, over %s", p.layer, p.head, p.tokens())
}

// tokens names the prompt: `the 11 tokens of "for i, v := range"`.
func (p *pick) tokens() string {
	return fmt.Sprintf("the %d tokens of %s", len(p.ids), quote(p.text))
}

// quote writes a prompt on one line.
func quote(s string) string {
	return fmt.Sprintf("%q", strings.TrimSpace(s))
}

// stepper starts a forward of the case's prompt.
func (p *pick) stepper() *gpt.Stepper {
	s, err := p.m.Stepper(p.ids)
	if err != nil {
		panic(err) // the prompt was encoded by the model's own tokenizer
	}
	return s
}

// runTo steps s to the op making name and returns that op.
func runTo(s *gpt.Stepper, name string) *gpt.Op {
	op, err := s.RunTo(name)
	if err != nil {
		panic(err) // the names below are the Stepper's own
	}
	return op
}

// block returns the name of one of the case's block's ops, e.g. "attn.hook_q".
func (p *pick) block(name string) string { return fmt.Sprintf("blocks.%d.%s", p.layer, name) }

// rows cuts an activation (1, T, …) into T rows.
func rows(a *gpt.Activation) grid {
	T := a.Shape[1]
	n := a.Len() / T
	g := make(grid, T)
	for t := range g {
		g[t] = append([]float32(nil), a.Data[t*n:(t+1)*n]...)
	}
	return g
}

// headRows returns head h's rows of an activation (1, T, NH, HS): (T, HS).
func headRows(a *gpt.Activation, h int) grid {
	T, NH, HS := a.Shape[1], a.Shape[2], a.Shape[3]
	g := make(grid, T)
	for t := range g {
		off := (t*NH + h) * HS
		g[t] = append([]float32(nil), a.Data[off:off+HS]...)
	}
	return g
}

// headMatrix returns head h's (T, T) matrix of an activation (1, NH, T, T).
func headMatrix(a *gpt.Activation, h int) grid {
	T := a.Shape[2]
	g := make(grid, T)
	for i := range g {
		off := (h*T + i) * T
		g[i] = append([]float32(nil), a.Data[off:off+T]...)
	}
	return g
}

// clone copies a grid, so the student's function cannot change the checker's inputs.
func clone(g grid) grid {
	c := make(grid, len(g))
	for i, r := range g {
		c[i] = append([]float32(nil), r...)
	}
	return c
}

// failed is the verdict of a check that could not run.
func failed(op string, err error) *Verdict {
	return &Verdict{Op: op, Case: "no inputs", Problem: err.Error()}
}

// eachRow runs the student's function on every row, turning a panic into a message that
// names the row.
func eachRow(n int, what string, f func(r int)) (panicked string) {
	for r := 0; r < n; r++ {
		if msg := call(func() { f(r) }); msg != "" {
			return fmt.Sprintf("your function panicked on %s %d: %s", what, r, msg)
		}
	}
	return ""
}

// rowwise applies a function of one row to every row of x, in float64 where it computes.
func rowwise(x grid, f func(row []float32) []float32) grid {
	out := make(grid, len(x))
	for i, r := range x {
		out[i] = f(r)
	}
	return out
}
