package fast

import "math"

// The float32 exponential and what is built on it: the sums of exponentials of a softmax
// and GELU, eight at a time with AVX2 and FMA where the CPU has them (exp_amd64.s), one
// element at a time otherwise.

// ExpSum replaces each x[i] by e^(x[i]-shift), clamped to e^-87.34 … e^88.38, and returns
// their sum.
func ExpSum(x []float32, shift float32) float32 { return expSum(x, shift) }

// SumExp is the sum ExpSum returns, bit for bit, leaving x as it is: a softmax's
// denominator over a row that is read, not replaced (gpt's softmaxSum over the logits).
func SumExp(x []float32, shift float32) float32 { return sumExp(x, shift) }

// Softmax replaces x (not empty) by its softmax, in float32 with expSum.
func Softmax(x []float32) { softmaxCausal(x, len(x)) }

// exp32 is e^x in float32 to about one ulp (Cephes' expf: x = k·ln2 + r, |r| ≤ ln2/2,
// e^r by a degree-6 polynomial, 2^k put in the exponent bits). It underflows to 0 below
// -87.3, which the softmax relies on for masked or far-below-max scores.
func exp32(x float32) float32 {
	if x > 88.37 {
		return float32(math.Inf(1))
	}
	if x < -87.33 {
		return 0
	}
	fx := float32(math.Floor(float64(x*1.44269504088896341 + 0.5)))
	x -= fx * 0.693359375
	x -= fx * -2.12194440e-4
	z := x * x
	y := ((((1.9875691500e-4*x+1.3981999507e-3)*x+8.3334519073e-3)*x+4.1665795894e-2)*x+1.6666665459e-1)*x + 5.0000001201e-1
	y = y*z + x + 1
	return y * math.Float32frombits(uint32(int32(fx)+127)<<23)
}

// expLo and expHi bound the argument of expSum (the bits of exp_amd64.s): e^expLo is about
// the smallest normal float32 and e^expHi about the largest.
var expLo, expHi = math.Float32frombits(0xc2aeac50), math.Float32frombits(0x42b0c0a5)

// expSumGo is expSum one element at a time: exp32 written into the loop (a call per
// element costs as much as the polynomial), with the input clamped as the AVX2 kernel does.
func expSumGo(x []float32, shift float32) float32 { return expSumTo(x, x, shift) }

// sumExpGo is sumExp one element at a time.
func sumExpGo(x []float32, shift float32) float32 { return expSumTo(nil, x, shift) }

// expSumTo writes e^(x[i]-shift) into dst[i] (none when dst is nil) and returns their sum.
func expSumTo(dst, x []float32, shift float32) float32 {
	var sum float32
	for j, v := range x {
		v = min(max(v-shift, expLo), expHi)
		fx := float32(math.Floor(float64(v*1.44269504088896341 + 0.5)))
		v -= fx * 0.693359375
		v -= fx * -2.12194440e-4
		z := v * v
		y := ((((1.9875691500e-4*v+1.3981999507e-3)*v+8.3334519073e-3)*v+4.1665795894e-2)*v+1.6666665459e-1)*v + 5.0000001201e-1
		e := (y*z + v + 1) * math.Float32frombits(uint32(int32(fx)+127)<<23)
		if dst != nil {
			dst[j] = e
		}
		sum += e
	}
	return sum
}

// geluScale is sqrt(2/π), the constant of GELU's tanh approximation.
var geluScale = float32(math.Sqrt(2 / math.Pi))

// Gelu applies GELU in its tanh approximation, out = ½·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))),
// both (N). Since ½(1 + tanh u) = 1/(1 + e^(-2u)), it is computed as x/(1 + e^(-2u)): one
// float32 exponential per element, eight at a time in one pass with AVX2 (geluAVX2 in
// exp_amd64.s), split over the cores. out and inp must not overlap.
func Gelu(out, inp []float32, N int) {
	geluRegion.Chunks(N, 1<<14, geluArgs{out, inp})
}

// geluArgs are Gelu's operands; geluRegion applies it to elements lo…hi-1.
type geluArgs struct{ out, inp []float32 }

var geluRegion = Region[geluArgs]{Body: func(a *geluArgs, lo, hi int) { geluRange(a.out[lo:hi], a.inp[lo:hi]) }}

// geluGo is Gelu's formula one element at a time.
func geluGo(out, inp []float32) {
	for i, x := range inp {
		out[i] = x / (1 + exp32(-2*geluScale*x*(1+0.044715*x*x)))
	}
}

// GeluBackward is the gradient of Gelu. With u = √(2/π)·(x + 0.044715·x³) and
// s = ½(1 + tanh u) = 1/(1 + e^(-2u)), and 1 - tanh²u = 4s(1-s):
//
//	d gelu/dx = s + 2x·s·(1-s)·√(2/π)·(1 + 3·0.044715·x²)
//
// one float32 exponential per element, like the forward.
//
//	dinp, inp, dout (N)
func GeluBackward(dinp, inp, dout []float32, N int) {
	Chunks(N, 1<<14, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			x := inp[i]
			u := geluScale * (x + 0.044715*x*x*x)
			s := 1 / (1 + exp32(-2*u))
			local := s + 2*x*s*(1-s)*geluScale*(1+3*0.044715*x*x)
			dinp[i] += local * dout[i]
		}
	})
}
