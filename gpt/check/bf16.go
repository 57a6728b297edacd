package check

import (
	"fmt"
	"math"

	"github.com/gptnotes/gptnotes/gpt"
)

// BF16 checks a student's rounding of a float32 to the nearest bfloat16, returned as a
// float32 whose low 16 bits are 0: ties go to the even bfloat16 (the one whose last kept
// bit is 0), values that round past the largest bfloat16 become ±Inf, and NaN stays NaN.
// It runs on every value of one block's residual stream (blocks.l.hook_resid_post) and on
// a row of edge cases (the ties, the largest float32, a subnormal, NaN with every mantissa
// bit set), and compares bit for bit with gpt.RoundBF16, the rounding the bf16 model does.
//
//	v := check.BF16(func(x float32) float32 { … })
func BF16(f func(x float32) float32) *Verdict {
	const op = "rounding to bfloat16"
	p, err := draw(op)
	if err != nil {
		return failed(op, err)
	}
	in := rows(runTo(p.stepper(), p.block("hook_resid_post")).Output)
	edge := make([]float32, len(bf16Edges))
	for i, e := range bf16Edges {
		edge[i] = math.Float32frombits(e.bits)
	}
	in = append(in, edge)
	v := &Verdict{Op: op, Case: fmt.Sprintf("hook_resid_post of block %d, over %s, and %d edge cases", p.layer, p.tokens(), len(edge)), Tol: 0, Ref: "gpt.RoundBF16"}
	model := rowwise(in, roundWith(gpt.RoundBF16))
	yours := make(grid, len(in))
	if msg := eachRow(len(in), "row", func(r int) { yours[r] = roundWith(f)(in[r]) }); msg != "" {
		v.Problem = msg
		return v
	}
	last := len(in) - 1
	where := func(r, c int) string {
		x := in[r][c]
		if r == last {
			return fmt.Sprintf("edge case %d, %s (bits 0x%08x)", c, bf16Edges[c].what, math.Float32bits(x))
		}
		return fmt.Sprintf("position %d, channel %d (x = %.9g, bits 0x%08x)", r, c, x, math.Float32bits(x))
	}
	v.compare(yours, model, where, "one row of C per position, then the edge cases")
	if !v.OK {
		v.recogniseExact(yours, model, bf16Mistakes(in))
	}
	return v
}

// bf16Edges are the values where roundings part: ties both ways, just past a tie, the
// overflow to Inf, the subnormals and NaN.
var bf16Edges = []struct {
	bits uint32
	what string
}{
	{0x3f808000, "1 + 2⁻⁸, a tie between 1 and 1 + 2⁻⁷: to the even one, 1"},
	{0x3f818000, "1 + 3·2⁻⁸, a tie: to the even one, 1 + 2⁻⁶"},
	{0x3f808001, "just past a tie: up"},
	{0xbf808000, "−(1 + 2⁻⁸), a tie: to −1"},
	{0x40490fdb, "π"},
	{0x7f7fffff, "the largest float32: past the largest bfloat16, so +Inf"},
	{0xff7fffff, "the most negative float32: −Inf"},
	{0x7f800000, "+Inf"},
	{0xff800000, "−Inf"},
	{0x7fc00000, "NaN"},
	{0x7fffffff, "NaN with every mantissa bit set: still NaN, not a carry into the sign"},
	{0x00000001, "the smallest subnormal: to 0"},
	{0x007fffff, "the largest subnormal: up to the smallest normal"},
	{0x80000000, "−0"},
}

// roundWith applies a rounding of one value to a row.
func roundWith(f func(float32) float32) func([]float32) []float32 {
	return func(r []float32) []float32 {
		out := make([]float32, len(r))
		for i, x := range r {
			out[i] = f(x)
		}
		return out
	}
}

// bf16WrongWays are the roundings a student's is compared with.
var bf16WrongWays = []struct {
	says string
	f    func(b uint32) uint32
}{
	{"truncation: the low 16 bits dropped, which rounds toward zero and is off by one unit in the last place for half of all values.",
		func(b uint32) uint32 { return b &^ 0xffff }},
	{"ties away from zero (adding 0x8000 before dropping the low bits): a tie goes up, where round-to-nearest-even takes the even neighbour.",
		func(b uint32) uint32 {
			if b&0x7fffffff > 0x7f800000 {
				return b | 0x400000
			}
			return (b + 0x8000) &^ 0xffff
		}},
	{"ties to even without a case for NaN: adding 0x7fff to a NaN whose mantissa is all ones carries into the exponent and the sign, and NaN becomes −0 (or Inf).",
		func(b uint32) uint32 { return (b + 0x7fff + (b>>16)&1) &^ 0xffff }},
}

func bf16Mistakes(x grid) []mistake {
	var ms []mistake
	for _, w := range bf16WrongWays {
		ms = append(ms, mistake{says: w.says, out: rowwise(x, roundWith(func(f float32) float32 {
			return math.Float32frombits(w.f(math.Float32bits(f)))
		}))})
	}
	return ms
}

// recogniseExact is recognise for an op whose output is compared bit for bit: a mistake is
// recognised when it differs from the model's output somewhere and equals yours everywhere
// (NaN equal to NaN, −0 to 0).
func (v *Verdict) recogniseExact(yours, model grid, mistakes []mistake) {
	same := func(a, b grid) bool {
		if !sameShape(a, b) {
			return false
		}
		for r := range a {
			for c, x := range a[r] {
				y := b[r][c]
				if x != y && !(x != x && y != y) {
					return false
				}
			}
		}
		return true
	}
	for _, m := range mistakes {
		if !same(m.out, model) && same(yours, m.out) {
			v.Mistake = m.says
			return
		}
	}
}
