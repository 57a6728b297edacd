package check_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/gpt/check"
)

// attentionWith is attention of one head as a student writes it, in float32, with the
// scale, the mask and the masked score given, and with or without max-subtraction.
func attentionWith(scale func(hs int) float32, sees func(i, j int) bool, masked float32, subtractMax bool) func(q, k, v [][]float32) [][]float32 {
	return func(q, k, v [][]float32) [][]float32 {
		T, HS := len(q), len(q[0])
		z := make([][]float32, T)
		for i := range q {
			w := make([]float32, T)
			mx := float32(math.Inf(-1))
			for j := range k {
				if !sees(i, j) {
					w[j] = masked
				} else {
					var s float32
					for d := range q[i] {
						s += q[i][d] * k[j][d]
					}
					w[j] = s * scale(HS)
				}
				mx = max(mx, w[j])
			}
			if !subtractMax {
				mx = 0
			}
			var sum float32
			for j := range w {
				w[j] = float32(math.Exp(float64(w[j] - mx)))
				sum += w[j]
			}
			z[i] = make([]float32, HS)
			for j := range w {
				for d := range z[i] {
					z[i][d] += w[j] / sum * v[j][d]
				}
			}
		}
		return z
	}
}

var (
	invSqrt  = func(hs int) float32 { return 1 / float32(math.Sqrt(float64(hs))) }
	pastOnly = func(i, j int) bool { return j <= i }
	negInf   = float32(math.Inf(-1))
)

func TestAttentionRight(t *testing.T) {
	for i := 0; i < 2; i++ { // two calls: the same case, right both times
		v := check.Attention(attentionWith(invSqrt, pastOnly, negInf, true))
		t.Log(v)
		if !v.OK || v.Err() != nil || !strings.HasPrefix(v.String(), "right: attention of one head matches the model's to 1e-05") {
			t.Errorf("a right attention: %v", v)
		}
	}
}

// TestAttentionMistakes checks that each known mistake fails with the sentence naming it.
func TestAttentionMistakes(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(q, k, v [][]float32) [][]float32
		says string
	}{
		{"no scale", attentionWith(func(int) float32 { return 1 }, pastOnly, negInf, true), "no 1/√HS scale"},
		{"1/HS", attentionWith(func(hs int) float32 { return 1 / float32(hs) }, pastOnly, negInf, true), "dividing by HS instead of √HS"},
		{"no max-subtraction", attentionWith(invSqrt, pastOnly, negInf, false), "no max-subtraction"},
		{"wrong triangle", attentionWith(invSqrt, func(i, j int) bool { return j >= i }, negInf, true), "the mask on the wrong triangle"},
		{"no mask", attentionWith(invSqrt, func(i, j int) bool { return true }, negInf, true), "no mask"},
		{"excludes itself", attentionWith(invSqrt, func(i, j int) bool { return j < i }, negInf, true), "kept from seeing itself"},
		{"one future key", attentionWith(invSqrt, func(i, j int) bool { return j <= i+1 }, negInf, true), "one key of the future"},
		{"masked with 0", attentionWith(invSqrt, pastOnly, 0, true), "masked with 0 instead of −Inf"},
	} {
		v := check.Attention(c.f)
		t.Logf("%s: %v", c.name, v)
		if v.OK || !strings.Contains(v.Mistake, c.says) || !strings.HasPrefix(v.Err().Error(), "not yet: attention of one head") {
			t.Errorf("%s: verdict %v, want a mistake saying %q", c.name, v, c.says)
		}
		if !strings.Contains(v.Problem, "differs first at head ") {
			t.Errorf("%s: the problem does not say where: %q", c.name, v.Problem)
		}
	}
}

func TestAttentionShapeAndPanic(t *testing.T) {
	v := check.Attention(func(q, k, v [][]float32) [][]float32 { return q[:len(q)-1] })
	if v.OK || !strings.Contains(v.Problem, "the shape is wrong: yours has") {
		t.Errorf("one row short: %v", v)
	}
	v = check.Attention(func(q, k, v [][]float32) [][]float32 { return [][]float32{q[0][:100]} })
	if v.OK || !strings.Contains(v.Problem, "your function panicked: runtime error: slice bounds out of range") {
		t.Errorf("panicking: %v", v)
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.HasPrefix(r.(error).Error(), "not yet: ") {
				t.Errorf("Must of a wrong verdict panicked with %v", r)
			}
		}()
		v.Must()
	}()
	if h := v.HTML(); !strings.Contains(h, "not yet") {
		t.Errorf("HTML: %s", h)
	}
}
