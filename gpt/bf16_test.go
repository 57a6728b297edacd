package gpt

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestFloat32ToBF16(t *testing.T) {
	bits := math.Float32frombits
	cases := []struct {
		name string
		in   float32
		want uint16
	}{
		{"one", 1, 0x3f80},
		{"minus two", -2, 0xc000},
		{"zero", 0, 0x0000},
		{"minus zero", float32(math.Copysign(0, -1)), 0x8000},
		{"exact bf16", bits(0x3f810000), 0x3f81},
		{"below half rounds down", bits(0x3f807fff), 0x3f80},
		{"above half rounds up", bits(0x3f808001), 0x3f81},
		{"tie to even, down (0x3f80 is even)", bits(0x3f808000), 0x3f80},
		{"tie to even, up (0x3f81 is odd)", bits(0x3f818000), 0x3f82},
		{"tie carries into the exponent", bits(0x3fff8000), 0x4000},
		{"negative tie to even", bits(0xbf818000), 0xbf82},
		{"largest float32 rounds to +Inf", math.MaxFloat32, 0x7f80},
		{"+Inf", float32(math.Inf(1)), 0x7f80},
		{"-Inf", float32(math.Inf(-1)), 0xff80},
		{"subnormal", bits(0x00018000), 0x0002},
	}
	for _, c := range cases {
		if got := float32ToBF16(c.in); got != c.want {
			t.Errorf("%s: float32ToBF16(%#08x) = %#04x, want %#04x", c.name, math.Float32bits(c.in), got, c.want)
		}
	}
	// NaN stays NaN, even one whose payload lives only in the low bits.
	for _, nan := range []float32{float32(math.NaN()), bits(0x7f800001), bits(0xff800001)} {
		if got := bf16ToFloat32(float32ToBF16(nan)); !math.IsNaN(float64(got)) {
			t.Errorf("NaN %#08x became %v", math.Float32bits(nan), got)
		}
	}
	// Against float64 arithmetic: the result is one of the two neighbours and the nearer one.
	rng := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 100000; i++ {
		f := math.Float32frombits(rng.Uint32() & 0x7f7fffff) // finite, positive
		r := RoundBF16(f)
		lo := math.Float32frombits(math.Float32bits(f) &^ 0xffff)
		hi := math.Float32frombits(math.Float32bits(lo) + 0x10000)
		hi64 := float64(hi)
		if math.IsInf(hi64, 1) { // rounding up past the largest bf16 gives +Inf, at 2^128
			hi64 = math.Ldexp(1, 128)
		}
		dlo, dhi := float64(f)-float64(lo), hi64-float64(f)
		want := lo
		if dhi < dlo || (dhi == dlo && math.Float32bits(lo)&0x10000 != 0) {
			want = hi
		}
		if r != want {
			t.Fatalf("RoundBF16(%v) = %v, want %v", f, r, want)
		}
	}
}

// A BF16 model stores 2 bytes per parameter and gives logits close to, but not the same
// as, the fp32 model's; its cached and uncached forwards agree with each other.
func TestBF16Forward(t *testing.T) {
	m := newTestModel(t, Tiny, 11)
	b := m.WithPrecision(BF16)
	if b.Params != nil || b.WeightBytes() != 2*Tiny.NumParams() || m.WeightBytes() != 4*Tiny.NumParams() {
		t.Errorf("bf16 weights: Params %v, %d bytes; fp32 %d bytes; want nil, %d, %d",
			b.Params != nil, b.WeightBytes(), m.WeightBytes(), 2*Tiny.NumParams(), 4*Tiny.NumParams())
	}
	rng := rand.New(rand.NewPCG(11, 11))
	ids := randomIDs(rng, 40, Tiny.VocabSize)
	targets := randomIDs(rng, 40, Tiny.VocabSize)
	f32, err := m.Forward([][]int{ids}, [][]int{targets})
	if err != nil {
		t.Fatal(err)
	}
	f16, err := b.Forward([][]int{ids}, [][]int{targets})
	if err != nil {
		t.Fatal(err)
	}
	var scale float64
	for _, x := range f32.Logits {
		scale = math.Max(scale, math.Abs(float64(x)))
	}
	d := maxDiff(f32.Logits, f16.Logits)
	t.Logf("bf16 vs fp32, Tiny, 40 positions: max |Δlogit| %.4g (largest |logit| %.3g), loss %.5f vs %.5f", d, scale, f16.Loss, f32.Loss)
	if d == 0 || d > 0.05*scale {
		t.Errorf("bf16 vs fp32 logits: max |diff| %g, want > 0 and ≤ 5%% of the largest logit %g", d, scale)
	}
	if math.Abs(float64(f16.Loss-f32.Loss)) > 0.01 {
		t.Errorf("bf16 loss %.5f, fp32 %.5f", f16.Loss, f32.Loss)
	}
	for _, x := range f16.Logits {
		if x != RoundBF16(x) {
			t.Fatalf("bf16 logit %v is not a bfloat16", x)
		}
	}
	c := b.NewCache()
	if c.Precision != BF16 || c.Bytes() != CacheBytes(Tiny, Tiny.BlockSize, 2) || m.NewCache().Bytes() != CacheBytes(Tiny, Tiny.BlockSize, 4) {
		t.Errorf("caches: bf16 %v %d bytes, fp32 %d bytes; want bf16 %d and %d (CacheBytes)", c.Precision, c.Bytes(),
			m.NewCache().Bytes(), CacheBytes(Tiny, Tiny.BlockSize, 2), CacheBytes(Tiny, Tiny.BlockSize, 4))
	}
	if _, err := m.ForwardCached(c, ids); err == nil {
		t.Error("an fp32 model ran on a bf16 cache")
	}
	got, err := b.ForwardCached(c, ids)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(got, f16.Row(0, 39)); d > 0.05*scale {
		t.Errorf("bf16 cached vs uncached: max |diff| %g", d)
	}
	// Back to fp32: the widened bf16 weights, each within bf16's rounding of the original.
	back := b.WithPrecision(FP32)
	for i, x := range back.Params.Data {
		if x != RoundBF16(m.Params.Data[i]) {
			t.Fatalf("parameter %d: %v after the round trip, want %v", i, x, RoundBF16(m.Params.Data[i]))
		}
	}
}

// Models made by Share run on separate goroutines at once: a BF16 one too, whose bfloat16
// weights they share.
func TestShareConcurrent(t *testing.T) {
	m := newTestModel(t, Tiny, 17)
	ids := randomIDs(rand.New(rand.NewPCG(17, 17)), 48, Tiny.VocabSize)
	for _, base := range []*Model{m, m.WithPrecision(BF16)} {
		want, err := base.Forward([][]int{ids}, nil)
		if err != nil {
			t.Fatal(err)
		}
		results := make(chan []float32, 4)
		for g := 0; g < 4; g++ {
			s := base.Share()
			go func() {
				var last []float32
				for i := 0; i < 5; i++ {
					out, err := s.Forward([][]int{ids}, nil)
					if err != nil {
						t.Error(err)
						results <- nil
						return
					}
					last = out.Logits
				}
				results <- last
			}()
		}
		for g := 0; g < 4; g++ {
			if got := <-results; got != nil && maxDiff(got, want.Logits) != 0 {
				t.Errorf("%v: a shared model on its own goroutine gave different logits (max |diff| %g)", base.Precision, maxDiff(got, want.Logits))
			}
		}
	}
}

// A BF16 model's forward, uncached and cached, on every instruction path this machine has
// (portable Go, AVX2 widening the weights, AVX-512 with VDPBF16PS) against the readable
// loops. Every op rounds its output to bfloat16, so a product summed in another order can
// land one bfloat16 step away and carry that on: the logits agree to within a few bfloat16 steps
// of the largest logit, not bit for bit.
func TestBF16PathsMatchNaive(t *testing.T) {
	cfg := Config{VocabSize: 512, BlockSize: 160, Layers: 2, Heads: 2, Channels: 64}
	m := newTestModel(t, cfg, 21).WithPrecision(BF16)
	ids := randomIDs(rand.New(rand.NewPCG(21, 21)), 150, cfg.VocabSize)
	run := func() (all, cached []float32) {
		out, err := m.ForwardAll([][]int{ids})
		if err != nil {
			t.Fatal(err)
		}
		c := m.NewCache()
		if _, err := m.ForwardCached(c, ids[:140]); err != nil {
			t.Fatal(err)
		}
		for _, chunk := range [][]int{ids[140:141], ids[141:143], ids[143:146], ids[146:150]} { // 1 to 4 rows: the gemv kernels
			logits, err := m.ForwardCached(c, chunk)
			if err != nil {
				t.Fatal(err)
			}
			cached = append(cached, logits...)
		}
		few, err := m.ForwardAll([][]int{ids[:3]}) // every position's logits: the output layer of 3 rows
		if err != nil {
			t.Fatal(err)
		}
		cached = append(cached, few.Logits...)
		return out.Logits, cached
	}
	var wantAll, wantCached []float32
	naive(func() { wantAll, wantCached = run() })
	scale := float64(0)
	for _, x := range wantAll {
		scale = math.Max(scale, math.Abs(float64(x)))
	}
	for _, path := range cpuPaths() {
		restore := useCPUPath(path)
		all, cached := run()
		restore()
		dAll, dCached := maxDiff(all, wantAll), maxDiff(cached, wantCached[:len(cached)])
		t.Logf("%s: max |Δlogit| vs naive %.3g uncached, %.3g cached (largest |logit| %.3g)", path, dAll, dCached, scale)
		if dAll > 0.01*scale || dCached > 0.01*scale {
			t.Errorf("%s: bf16 logits differ from the naive loops by %g (uncached), %g (cached); want ≤ 1%% of %g", path, dAll, dCached, scale)
		}
	}
}
