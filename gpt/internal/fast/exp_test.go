package fast

import (
	"math"
	"math/rand/v2"
	"testing"
)

// exp32 against math.Exp.
func TestExp32(t *testing.T) {
	for _, v := range []float32{-80, -20, -1, -1e-3, 0, 1e-3, 0.5, 1, 10, 80} {
		got, want := exp32(v), math.Exp(float64(v))
		if rel := math.Abs(float64(got)-want) / want; rel > 3e-7 {
			t.Errorf("exp32(%g) = %g, want %g (rel %g)", v, got, want, rel)
		}
	}
}

// The vector exponential (AVX2 where the CPU has it) against the scalar loop and math.Exp.
func TestExpSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{0, 1, 7, 8, 9, 100, 1027} {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.Float64()*170 - 110)
		}
		x = append(x, -200, -87.3, 0, 1, 80, 200) // the last one clamps to e^88.38
		shift := float32(rng.Float64() * 3)
		a, b := append([]float32(nil), x...), append([]float32(nil), x...)
		sa, sb := expSum(a, shift), expSumGo(b, shift)
		var want float64
		for i, v := range x {
			e := math.Exp(float64(min(max(v-shift, expLo), expHi)))
			want += e
			if math.Abs(float64(a[i])-e) > 3e-7*e+1e-42 { // 1e-42: results near the smallest normal lose bits
				t.Errorf("n=%d: exp(%g-%g) = %g, want %g", n, x[i], shift, a[i], e)
			}
			if math.Abs(float64(a[i]-b[i])) > 2e-7*e+1e-42 {
				t.Errorf("n=%d: vector %g vs scalar %g at %g", n, a[i], b[i], x[i])
			}
		}
		if want > math.MaxFloat32 {
			continue // the float32 sum overflows, as it should
		}
		if rel := math.Abs(float64(sa)-want) / want; rel > 1e-5 {
			t.Errorf("n=%d: sum %g, want %g", n, sa, want)
		}
		if rel := math.Abs(float64(sa-sb)) / want; rel > 1e-5 {
			t.Errorf("n=%d: vector sum %g, scalar %g", n, sa, sb)
		}
	}
	t.Logf("AVX2: %v", HasAVX2)
}

func maxDiff(a, b []float32) float64 {
	var d float64
	for i := range a {
		d = math.Max(d, math.Abs(float64(a[i])-float64(b[i])))
	}
	return d
}

func randomSlice(rng *rand.Rand, n int, std float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.NormFloat64() * std)
	}
	return x
}
