// A student's attention and LayerNorm, declared in cells and handed to package check: the
// checker (compiled) calls the interpreted functions on the shipped model's activations. A
// right one passes, a wrong one fails with its mistake named, one that panics is reported
// in the verdict, and Must makes an exercise's check cell fail.
import (
	"fmt"
	"math"
	"strings"

	"github.com/gptnotes/gptnotes/gpt/check"
)

func attention(q, k, v [][]float32) [][]float32 {
	T, HS := len(q), len(q[0])
	z := make([][]float32, T)
	for i := range q {
		w := make([]float64, i+1) // query i sees keys 0 … i
		mx := math.Inf(-1)
		for j := range w {
			var s float64
			for d := 0; d < HS; d++ {
				s += float64(q[i][d] * k[j][d])
			}
			w[j] = s / math.Sqrt(float64(HS))
			mx = math.Max(mx, w[j])
		}
		var sum float64
		for j := range w {
			w[j] = math.Exp(w[j] - mx)
			sum += w[j]
		}
		z[i] = make([]float32, HS)
		for j := range w {
			for d := range z[i] {
				z[i][d] += float32(w[j]/sum) * v[j][d]
			}
		}
	}
	return z
}
v := check.Attention(attention)
fmt.Println(v.OK, v.Err() == nil, strings.HasPrefix(v.String(), "right: attention of one head matches the model's to 1e-05"))
// ---
func attentionUnscaled(q, k, v [][]float32) [][]float32 {
	s := make([][]float32, len(q))
	for i := range q {
		s[i] = make([]float32, len(q[i]))
		for d := range q[i] {
			s[i][d] = q[i][d] * float32(math.Sqrt(float64(len(q[i])))) // undoes the 1/√HS below
		}
	}
	return attention(s, k, v)
}
w := check.Attention(attentionUnscaled)
fmt.Println(w.OK, strings.HasPrefix(w.Problem, "differs first at head "), w.Mistake)
// ---
func broken(q, k, v [][]float32) [][]float32 { return [][]float32{q[0][:1000]} }
b := check.Attention(broken)
fmt.Println(b.OK, b.Problem)
// ---
func layerNorm(x, weight, bias []float32) []float32 {
	var mean, variance float64
	for _, v := range x {
		mean += float64(v)
	}
	mean /= float64(len(x))
	for _, v := range x {
		variance += (float64(v) - mean) * (float64(v) - mean)
	}
	variance /= float64(len(x) - 1) // Bessel's correction: not what LayerNorm does
	y := make([]float32, len(x))
	for i, v := range x {
		y[i] = float32((float64(v)-mean)/math.Sqrt(variance+1e-5))*weight[i] + bias[i]
	}
	return y
}
ln := check.LayerNorm(layerNorm)
fmt.Println(ln.OK, ln.Mistake)
// ---
func mustPanics() (msg string) {
	defer func() { msg = fmt.Sprint(recover())[:len("not yet: LayerNorm")] }()
	check.LayerNorm(layerNorm).Must()
	return "no panic"
}
mustPanics()
// Output:
// true true true
// false true no 1/√HS scale: the scores q·k are not divided by √HS, so the softmax is too sharp.
// false your function panicked: reflect.Value.Slice: slice index out of bounds
// false the unbiased variance: dividing the sum of squares by C−1 (Bessel's correction, torch.var's default) instead of C, as LayerNorm does.
// Out: not yet: LayerNorm
