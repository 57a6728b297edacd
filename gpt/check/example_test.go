package check_test

import (
	"fmt"
	"math"

	"github.com/gptnotes/gptnotes/gpt/check"
)

// softmaxRow is a row's softmax over its first n entries, the largest subtracted first;
// the rest get 0.
func softmaxRow(row []float64, n int) []float64 {
	mx := math.Inf(-1)
	for _, x := range row[:n] {
		mx = math.Max(mx, x)
	}
	p := make([]float64, len(row))
	var sum float64
	for j := 0; j < n; j++ {
		p[j] = math.Exp(row[j] - mx)
		sum += p[j]
	}
	for j := range p {
		p[j] /= sum
	}
	return p
}

// A student's attention of one head, and the same with the mask on the wrong triangle.
func ExampleAttention() {
	attention := func(q, k, v [][]float32) [][]float32 {
		z := make([][]float32, len(q))
		for i := range q {
			scores := make([]float64, len(k))
			for j := range k {
				for d := range q[i] {
					scores[j] += float64(q[i][d] * k[j][d])
				}
				scores[j] /= math.Sqrt(float64(len(q[i])))
			}
			p := softmaxRow(scores, i+1) // keys 0 … i
			z[i] = make([]float32, len(v[0]))
			for j := range v {
				for d := range z[i] {
					z[i][d] += float32(p[j]) * v[j][d]
				}
			}
		}
		return z
	}
	fmt.Println(check.Attention(attention).OK)

	reversed := func(q, k, v [][]float32) [][]float32 { // sees keys i … T-1
		T := len(q)
		flip := func(g [][]float32) [][]float32 {
			f := make([][]float32, T)
			for i := range g {
				f[T-1-i] = g[i]
			}
			return f
		}
		return flip(attention(flip(q), flip(k), flip(v)))
	}
	w := check.Attention(reversed)
	fmt.Println(w.OK, w.Mistake)
	// Output:
	// true
	// false the mask on the wrong triangle: each query sees the keys after it (key ≥ query) instead of those up to it (key ≤ query).
}

// A masked softmax without max-subtraction passes on the model's own scores and fails when
// they are shifted by 1000.
func ExampleMaskedSoftmax() {
	naive := func(scores [][]float32) [][]float32 {
		out := make([][]float32, len(scores))
		for i, row := range scores {
			out[i] = make([]float32, len(row))
			var sum float64
			for j := 0; j <= i; j++ {
				sum += math.Exp(float64(row[j]))
			}
			for j := 0; j <= i; j++ {
				out[i][j] = float32(math.Exp(float64(row[j])) / sum)
			}
		}
		return out
	}
	v := check.MaskedSoftmax(naive)
	fmt.Println(v.OK, v.Mistake)
	// Output:
	// false no max-subtraction: exp(score) overflows for a large score, giving +Inf and then NaN (and underflows to 0 for every key of a row far below 0, giving 0/0); subtract each row's largest score before exp (the softmax does not change).
}

// LayerNorm with the variance over C (right), and over C-1 (torch.var's default).
func ExampleLayerNorm() {
	layerNorm := func(ddof int) func(x, weight, bias []float32) []float32 {
		return func(x, weight, bias []float32) []float32 {
			var mean, ss float64
			for _, v := range x {
				mean += float64(v) / float64(len(x))
			}
			for _, v := range x {
				ss += (float64(v) - mean) * (float64(v) - mean)
			}
			scale := math.Sqrt(ss/float64(len(x)-ddof) + 1e-5)
			y := make([]float32, len(x))
			for i, v := range x {
				y[i] = float32((float64(v)-mean)/scale)*weight[i] + bias[i]
			}
			return y
		}
	}
	fmt.Println(check.LayerNorm(layerNorm(0)).OK)
	fmt.Println(check.LayerNorm(layerNorm(1)).Mistake)
	// Output:
	// true
	// the unbiased variance: dividing the sum of squares by C−1 (Bessel's correction, torch.var's default) instead of C, as LayerNorm does.
}

// GPT-2's GELU is the tanh approximation; the exact one, with erf, differs from it by up
// to 4.7e-4, more than the checker's 1e-5.
func ExampleGELU() {
	tanhGELU := func(x float32) float32 {
		u := math.Sqrt(2/math.Pi) * (float64(x) + 0.044715*math.Pow(float64(x), 3))
		return float32(0.5 * float64(x) * (1 + math.Tanh(u)))
	}
	erfGELU := func(x float32) float32 { return float32(0.5 * float64(x) * (1 + math.Erf(float64(x)/math.Sqrt2))) }
	fmt.Println(check.GELU(tanhGELU).OK)
	fmt.Println(check.GELU(erfGELU).Mistake)
	// Output:
	// true
	// the exact GELU, x·Φ(x) with erf: GPT-2 uses the tanh approximation, which differs from it by up to 4.7e-4 (near x = ±2.7).
}

// The residual add, and the mistake of returning the branch alone.
func ExampleResidual() {
	add := func(x, y []float32) []float32 {
		out := make([]float32, len(x))
		for i := range x {
			out[i] = x[i] + y[i]
		}
		return out
	}
	fmt.Println(check.Residual(add).OK)
	fmt.Println(check.Residual(func(x, y []float32) []float32 { return y }).Mistake)
	// Output:
	// true
	// the attention's output returned alone: the stream x is dropped, so nothing flows past the block.
}

// The unembedding is one dot product per row of the token table.
func ExampleUnembed() {
	unembed := func(x []float32, wte [][]float32) []float32 {
		logits := make([]float32, len(wte))
		for v, row := range wte {
			for i := range x {
				logits[v] += x[i] * row[i]
			}
		}
		return logits
	}
	fmt.Println(check.Unembed(unembed).OK)
	short := check.Unembed(func(x []float32, wte [][]float32) []float32 { return unembed(x, wte[:100]) })
	fmt.Println(short.Problem)
	// Output:
	// true
	// the shape is wrong: yours has 2 rows of 100, the model's 2 rows of 4096 (V logits per position).
}

// An exercise's check cell calls Must, which panics with "not yet: …" when the op is wrong
// and returns the verdict when it is right; Err is the same as an error.
func ExampleVerdict_Must() {
	add := func(x, y []float32) []float32 {
		out := make([]float32, len(x))
		for i := range x {
			out[i] = x[i] + y[i]
		}
		return out
	}
	fmt.Println(check.Residual(add).Must().OK, check.Residual(add).Err())
	defer func() { fmt.Printf("%.35s\n", fmt.Sprint(recover())) }()
	check.Residual(func(x, y []float32) []float32 { return x }).Must()
	// Output:
	// true <nil>
	// not yet: the residual add, on resid
}
