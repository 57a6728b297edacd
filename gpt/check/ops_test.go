package check_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/gpt/check"
)

// verdictCase is one function given to a checker: right (says is "") or a known mistake,
// whose verdict must contain says.
type verdictCase struct {
	name string
	run  func() *check.Verdict
	says string
}

func testVerdicts(t *testing.T, cases []verdictCase) {
	t.Helper()
	for _, c := range cases {
		first := ""
		for round := 0; round < 3; round++ { // three calls: the same case, the same verdict
			v := c.run()
			t.Logf("%s: %v", c.name, v)
			if round == 0 {
				first = v.String()
			} else if v.String() != first {
				t.Errorf("%s: call %d gave %v; the first gave %s", c.name, round+1, v, first)
			}
			if c.says == "" {
				if !v.OK || v.Err() != nil || !strings.HasPrefix(v.String(), "right: ") {
					t.Errorf("%s: a right op got %v", c.name, v)
				}
				continue
			}
			if v.OK || !strings.Contains(v.Mistake, c.says) || !strings.HasPrefix(v.Err().Error(), "not yet: ") {
				t.Errorf("%s: verdict %v; want a mistake saying %q", c.name, v, c.says)
			}
		}
	}
}

// softmaxWith is a student's masked softmax with the given mask and masked value, with or
// without max-subtraction, over rows (or by mistake columns).
func softmaxWith(sees func(i, j int) bool, masked float32, subtractMax, byColumn bool) func([][]float32) [][]float32 {
	return func(scores [][]float32) [][]float32 {
		T := len(scores)
		e := make([][]float32, T)
		for i := range scores {
			e[i] = make([]float32, T)
			row := make([]float32, T)
			mx := float32(math.Inf(-1))
			for j := range row {
				row[j] = scores[i][j]
				if !sees(i, j) {
					row[j] = masked
				}
				mx = max(mx, row[j])
			}
			if !subtractMax {
				mx = 0
			}
			for j := range row {
				e[i][j] = float32(math.Exp(float64(row[j] - mx)))
			}
		}
		out := make([][]float32, T)
		for i := range out {
			out[i] = make([]float32, T)
		}
		for a := 0; a < T; a++ {
			var sum float32
			for b := 0; b < T; b++ {
				if byColumn {
					sum += e[b][a]
				} else {
					sum += e[a][b]
				}
			}
			for b := 0; b < T; b++ {
				if byColumn {
					out[b][a] = e[b][a] / sum
				} else {
					out[a][b] = e[a][b] / sum
				}
			}
		}
		return out
	}
}

func TestMaskedSoftmax(t *testing.T) {
	sm := func(f func([][]float32) [][]float32) func() *check.Verdict {
		return func() *check.Verdict { return check.MaskedSoftmax(f) }
	}
	testVerdicts(t, []verdictCase{
		{"right", sm(softmaxWith(pastOnly, negInf, true, false)), ""},
		{"no max-subtraction", sm(softmaxWith(pastOnly, negInf, false, false)), "no max-subtraction"},
		{"wrong triangle", sm(softmaxWith(func(i, j int) bool { return j >= i }, negInf, true, false)), "the mask on the wrong triangle"},
		{"no mask", sm(softmaxWith(func(i, j int) bool { return true }, negInf, true, false)), "no mask"},
		{"excludes itself", sm(softmaxWith(func(i, j int) bool { return j < i }, negInf, true, false)), "kept from seeing itself"},
		{"one future key", sm(softmaxWith(func(i, j int) bool { return j <= i+1 }, negInf, true, false)), "one key of the future"},
		{"masked with 0", sm(softmaxWith(pastOnly, 0, true, false)), "masked with 0"},
		{"by column", sm(softmaxWith(pastOnly, negInf, true, true)), "the wrong axis"},
	})
	v := check.MaskedSoftmax(softmaxWith(func(i, j int) bool { return j >= i }, negInf, true, false))
	if !strings.Contains(v.Problem, "differs first at head ") || !strings.Contains(v.Problem, ", query 0, key 0: yours") {
		t.Errorf("the wrong triangle differs first at query 0, key 0; the verdict says %q", v.Problem)
	}
}

// layernormWith is a student's LayerNorm in float32 with the given divisor of the sum of
// squares and epsilon, and optionally eps on the standard deviation, no mean, no affine.
func layernormWith(ddof int, eps float32, epsOnStd, byVar, noMean, noAffine bool) func(x, w, b []float32) []float32 {
	return func(x, w, b []float32) []float32 {
		var mean float32
		if !noMean {
			for _, v := range x {
				mean += v
			}
			mean /= float32(len(x))
		}
		var ss float32
		for _, v := range x {
			ss += (v - mean) * (v - mean)
		}
		variance := ss / float32(len(x)-ddof)
		div := float32(math.Sqrt(float64(variance + eps)))
		if epsOnStd {
			div = float32(math.Sqrt(float64(variance))) + eps
		}
		if byVar {
			div = variance + eps
		}
		y := make([]float32, len(x))
		for i, v := range x {
			y[i] = (v - mean) / div
			if !noAffine {
				y[i] = y[i]*w[i] + b[i]
			}
		}
		return y
	}
}

func TestLayerNorm(t *testing.T) {
	ln := func(f func(x, w, b []float32) []float32) func() *check.Verdict {
		return func() *check.Verdict { return check.LayerNorm(f) }
	}
	testVerdicts(t, []verdictCase{
		{"right", ln(layernormWith(0, 1e-5, false, false, false, false)), ""},
		{"unbiased", ln(layernormWith(1, 1e-5, false, false, false, false)), "the unbiased variance"},
		{"no eps", ln(layernormWith(0, 0, false, false, false, false)), "no epsilon"},
		{"eps on std", ln(layernormWith(0, 1e-5, true, false, false, false)), "epsilon outside the square root"},
		{"by variance", ln(layernormWith(0, 1e-5, false, true, false, false)), "dividing by the variance"},
		{"no mean", ln(layernormWith(0, 1e-5, false, false, true, false)), "RMSNorm"},
		{"no affine", ln(layernormWith(0, 1e-5, false, false, false, true)), "weight and bias left out"},
	})
}

func TestGELU(t *testing.T) {
	g := func(f func(float64) float64) func() *check.Verdict {
		return func() *check.Verdict { return check.GELU(func(x float32) float32 { return float32(f(float64(x))) }) }
	}
	c := math.Sqrt(2 / math.Pi)
	testVerdicts(t, []verdictCase{
		{"right", g(func(x float64) float64 { return 0.5 * x * (1 + math.Tanh(c*(x+0.044715*x*x*x))) }), ""},
		{"erf", g(func(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) }), "the exact GELU"},
		{"relu", g(func(x float64) float64 { return max(x, 0) }), "ReLU"},
		{"sigmoid", g(func(x float64) float64 { return x / (1 + math.Exp(-1.702*x)) }), "sigmoid approximation"},
		{"no cubic", g(func(x float64) float64 { return 0.5 * x * (1 + math.Tanh(c*x)) }), "the cubic term left out"},
		{"no half", g(func(x float64) float64 { return x * (1 + math.Tanh(c*(x+0.044715*x*x*x))) }), "the ½ left out"},
	})
}

func TestResidual(t *testing.T) {
	r := func(f func(x, y float32) float32) func() *check.Verdict {
		return func() *check.Verdict {
			return check.Residual(func(x, y []float32) []float32 {
				out := make([]float32, len(x))
				for i := range x {
					out[i] = f(x[i], y[i])
				}
				return out
			})
		}
	}
	testVerdicts(t, []verdictCase{
		{"right", r(func(x, y float32) float32 { return x + y }), ""},
		{"x only", r(func(x, y float32) float32 { return x }), "the stream returned unchanged"},
		{"y only", r(func(x, y float32) float32 { return y }), "the attention's output returned alone"},
		{"minus", r(func(x, y float32) float32 { return x - y }), "x − y"},
	})
	// Adding in place into x is right too: the checker passes copies.
	v := check.Residual(func(x, y []float32) []float32 {
		for i := range x {
			x[i] += y[i]
		}
		return x
	})
	if !v.OK {
		t.Errorf("adding in place: %v", v)
	}
}

func TestUnembed(t *testing.T) {
	logits := func(x []float32, wte [][]float32) []float32 {
		out := make([]float32, len(wte))
		for v, row := range wte {
			var s float32
			for i := range x {
				s += x[i] * row[i]
			}
			out[v] = s
		}
		return out
	}
	softmax := func(z []float32, log bool) []float32 {
		mx := float32(math.Inf(-1))
		for _, v := range z {
			mx = max(mx, v)
		}
		var sum float64
		for _, v := range z {
			sum += math.Exp(float64(v - mx))
		}
		out := make([]float32, len(z))
		for i, v := range z {
			if log {
				out[i] = float32(float64(v-mx) - math.Log(sum))
			} else {
				out[i] = float32(math.Exp(float64(v-mx)) / sum)
			}
		}
		return out
	}
	u := func(f func(x []float32, wte [][]float32) []float32) func() *check.Verdict {
		return func() *check.Verdict { return check.Unembed(f) }
	}
	testVerdicts(t, []verdictCase{
		{"right", u(logits), ""},
		{"probabilities", u(func(x []float32, wte [][]float32) []float32 { return softmax(logits(x, wte), false) }), "probabilities, not logits"},
		{"log-probabilities", u(func(x []float32, wte [][]float32) []float32 { return softmax(logits(x, wte), true) }), "log-probabilities"},
	})
	v := check.Unembed(func(x []float32, wte [][]float32) []float32 { return logits(x, wte[:10]) })
	if v.OK || !strings.Contains(v.Problem, "the shape is wrong: yours has 2 rows of 10, the model's 2 rows of 4096") {
		t.Errorf("ten logits: %v", v)
	}
}
