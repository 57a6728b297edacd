package gpt

import (
	"github.com/gptnotes/gptnotes/gpt/internal/fast"

	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// maxDiff is max |a-b| over two equal-length slices.
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

func randomIDs(rng *rand.Rand, n, V int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = rng.IntN(V)
	}
	return ids
}

// newTestModel is a model of cfg with GPT-2's init, and non-zero biases and LayerNorm
// parameters so that every term of the forward pass matters.
func newTestModel(t testing.TB, cfg Config, seed uint64) *Model {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(seed, true)
	rng := rand.New(rand.NewPCG(seed, 7))
	for _, ts := range m.Params.Tensors {
		if len(ts.Shape) == 1 {
			for i := range ts.Data {
				ts.Data[i] += float32(rng.NormFloat64() * 0.1)
			}
		}
	}
	return m
}

// naiveForward is the reference forward: the same steps as Model.Forward built from the
// naive kernels (float64 sums, llm.c's loops), all positions.
func naiveForward(m *Model, ids []int) []float32 {
	cfg := m.Config
	T, C, V, NH := len(ids), cfg.Channels, cfg.VocabSize, cfg.Heads
	p := m.Params
	x := make([]float32, T*C)
	encoderForward(x, ids, p.Wte, p.Wpe, 1, T, C)
	ln := make([]float32, T*C)
	qkv := make([]float32, T*3*C)
	atty := make([]float32, T*C)
	proj := make([]float32, T*C)
	fch := make([]float32, T*4*C)
	gelu := make([]float32, T*4*C)
	for l := 0; l < cfg.Layers; l++ {
		w := &p.H[l]
		layernormForward(ln, nil, nil, x, w.Ln1W, w.Ln1B, T, C)
		matmulNaive(qkv, ln, w.CAttnW, w.CAttnB, T, C, 3*C)
		attentionNaive(atty, nil, qkv, 1, T, C, NH, false)
		matmulNaive(proj, atty, w.AttnCProjW, w.AttnCProjB, T, C, C)
		residualForward(x, x, proj, T*C)
		layernormForward(ln, nil, nil, x, w.Ln2W, w.Ln2B, T, C)
		matmulNaive(fch, ln, w.CFcW, w.CFcB, T, C, 4*C)
		geluNaive(gelu, fch, T*4*C)
		matmulNaive(proj, gelu, w.MlpCProjW, w.MlpCProjB, T, 4*C, C)
		residualForward(x, x, proj, T*C)
	}
	layernormForward(ln, nil, nil, x, p.LnFW, p.LnFB, T, C)
	logits := make([]float32, T*V)
	logitsNaive(logits, ln, p.Wte, T, C, V)
	return logits
}

func TestKernelsMatchNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, N := range []int{1, 3, 70, 130} {
		C, OC := 48, 200
		inp, w, bias := randomSlice(rng, N*C, 1), randomSlice(rng, C*OC, 0.1), randomSlice(rng, OC, 0.1)
		got, want := make([]float32, N*OC), make([]float32, N*OC)
		matmulForward(got, inp, w, bias, N, C, OC)
		matmulNaive(want, inp, w, bias, N, C, OC)
		if d := maxDiff(got, want); d > 1e-5 {
			t.Errorf("matmul N=%d: max |diff| %g", N, d)
		}
		V := 300
		wte := randomSlice(rng, V*C, 0.1)
		gotL, wantL := make([]float32, N*V), make([]float32, N*V)
		logitsForward(gotL, inp, wte, N, C, V)
		logitsNaive(wantL, inp, wte, N, C, V)
		if d := maxDiff(gotL, wantL); d > 1e-5 {
			t.Errorf("logits N=%d: max |diff| %g", N, d)
		}
	}
	for _, T := range []int{1, 5, 64, 150} {
		B, C, NH := 2, 32, 4
		qkv := randomSlice(rng, B*T*3*C, 1)
		got, want := make([]float32, B*T*C), make([]float32, B*T*C)
		gotAtt, wantAtt := make([]float32, B*NH*T*T), make([]float32, B*NH*T*T)
		attentionForward(got, gotAtt, qkv, B, T, C, NH, false)
		attentionNaive(want, wantAtt, qkv, B, T, C, NH, false)
		if d := maxDiff(got, want); d > 1e-5 {
			t.Errorf("attention T=%d: out max |diff| %g", T, d)
		}
		if d := maxDiff(gotAtt, wantAtt); d > 1e-6 {
			t.Errorf("attention T=%d: att max |diff| %g", T, d)
		}
		noAtt := make([]float32, B*T*C)
		attentionForward(noAtt, nil, qkv, B, T, C, NH, false)
		if d := maxDiff(noAtt, got); d != 0 {
			t.Errorf("attention T=%d: without att differs by %g", T, d)
		}
	}
	x := randomSlice(rng, 5003, 3) // a tail past the last eight
	got, want := make([]float32, len(x)), make([]float32, len(x))
	geluNaive(want, x, len(x))
	avx2 := fast.HasAVX2
	for _, avx := range []bool{avx2, false} {
		setAVX2(avx)
		geluForward(got, x, len(x))
		if d := maxDiff(got, want); d > 2e-6 {
			t.Errorf("gelu (avx2 %v): max |diff| %g", avx, d)
		}
	}
	setAVX2(avx2)
}

// The whole forward against the naive reference, on Tiny with non-trivial biases.
func TestForwardMatchesNaive(t *testing.T) {
	m := newTestModel(t, Tiny, 3)
	rng := rand.New(rand.NewPCG(3, 4))
	ids := randomIDs(rng, 50, Tiny.VocabSize)
	want := naiveForward(m, ids)
	out, err := m.ForwardAll([][]int{ids})
	if err != nil {
		t.Fatal(err)
	}
	d := maxDiff(out.Logits, want)
	t.Logf("Tiny forward vs naive: max |diff| %.3g", d)
	if d > 1e-4 {
		t.Errorf("forward vs naive reference: max |diff| %g > 1e-4", d)
	}
	// With targets: all logits again, and the loss is the mean of -log softmax.
	targets := randomIDs(rng, 50, Tiny.VocabSize)
	out2, err := m.Forward([][]int{ids}, [][]int{targets})
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(out2.Logits, out.Logits); d != 0 {
		t.Errorf("logits with targets differ from ForwardAll by %g", d)
	}
	var loss float64
	V := Tiny.VocabSize
	for i, tg := range targets {
		row := want[i*V : (i+1)*V]
		var mx float64 = math.Inf(-1)
		for _, x := range row {
			mx = math.Max(mx, float64(x))
		}
		var s float64
		for _, x := range row {
			s += math.Exp(float64(x) - mx)
		}
		loss += math.Log(s) + mx - float64(row[tg])
	}
	loss /= float64(len(targets))
	t.Logf("loss %.6f, reference %.6f", out2.Loss, loss)
	if math.Abs(float64(out2.Loss)-loss) > 1e-5 {
		t.Errorf("loss %.7f, reference %.7f", out2.Loss, loss)
	}
	// Without targets: the last position's logits only.
	out3, err := m.Forward([][]int{ids}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out3.T != 1 || len(out3.Logits) != V || !math.IsNaN(float64(out3.Loss)) {
		t.Fatalf("forward without targets: T=%d, %d logits, loss %v; want 1, %d, NaN", out3.T, len(out3.Logits), out3.Loss, V)
	}
	if d := maxDiff(out3.Row(0, 0), out.Row(0, 49)); d > 1e-6 {
		t.Errorf("last-position logits differ from the full forward's by %g", d)
	}
}

func TestBlockSizeError(t *testing.T) {
	m, err := New(Small)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Forward([][]int{make([]int, 1100)}, nil)
	const want = "Cannot forward sequence of length 1100, block size is only 1024"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("forward of 1100 positions: error %v, want one ending %q", err, want)
	}
	tiny := newTestModel(t, Tiny, 1)
	c := tiny.NewCache()
	if _, err := tiny.ForwardCached(c, make([]int, 60)); err != nil {
		t.Fatal(err)
	}
	_, err = tiny.ForwardCached(c, make([]int, 5))
	if err == nil || !strings.HasSuffix(err.Error(), "Cannot forward sequence of length 65, block size is only 64") {
		t.Errorf("pushing past the cache: error %v", err)
	}
}

func TestTokenOutsideVocabulary(t *testing.T) {
	m := newTestModel(t, Tiny, 1)
	_, err := m.Forward([][]int{{1, 2, 512, 3}}, nil)
	if err == nil || !strings.Contains(err.Error(), "token id 512") {
		t.Errorf("token 512 in a vocabulary of 512: error %v, want one naming id 512", err)
	}
	_, err = m.Forward([][]int{{1, 2}}, [][]int{{3, 9999}})
	if err == nil || !strings.Contains(err.Error(), "target id 9999") {
		t.Errorf("target 9999: error %v", err)
	}
	_, err = m.ForwardCached(m.NewCache(), []int{-1})
	if err == nil || !strings.Contains(err.Error(), "token id -1") {
		t.Errorf("cached token -1: error %v", err)
	}
	_, err = m.Forward([][]int{{1, 2}, {3}}, nil)
	if err == nil {
		t.Errorf("ragged batch: no error")
	}
}

// The cached loop against the uncached forward, on logits with a tolerance (the study, package study:
// habit 1): a prompt prefilled at once, then one token at a time, then a chunk.
func TestForwardCachedMatchesForward(t *testing.T) {
	m := newTestModel(t, Tiny, 5)
	rng := rand.New(rand.NewPCG(5, 6))
	ids := randomIDs(rng, Tiny.BlockSize, Tiny.VocabSize)
	c := m.NewCache()
	if got, want := c.Bytes(), 4*2*Tiny.Layers*Tiny.BlockSize*Tiny.Channels; got != want {
		t.Errorf("cache bytes %d, want %d", got, want)
	}
	var worst float64
	check := func(end int, got []float32) {
		out, err := m.Forward([][]int{ids[:end]}, nil)
		if err != nil {
			t.Fatal(err)
		}
		d := maxDiff(got, out.Logits)
		worst = math.Max(worst, d)
		if d > 1e-4 {
			t.Errorf("after %d positions: cached vs uncached logits max |diff| %g > 1e-4", end, d)
		}
	}
	steps := []int{11, 1, 1, 1, 20, 1, 1, 28} // 64 in all
	pos := 0
	for _, n := range steps {
		got, err := m.ForwardCached(c, ids[pos:pos+n])
		if err != nil {
			t.Fatal(err)
		}
		pos += n
		if c.Len() != pos {
			t.Fatalf("cache length %d, want %d", c.Len(), pos)
		}
		check(pos, got)
	}
	k, v := c.Layer(1)
	if len(k) != pos*Tiny.Channels || len(v) != pos*Tiny.Channels {
		t.Errorf("Layer(1): %d keys, %d values, want %d each", len(k), len(v), pos*Tiny.Channels)
	}
	t.Logf("cached vs uncached, Tiny, 64 positions: max |diff| %.3g", worst)
	c.Reset()
	got, err := m.ForwardCached(c, ids[:7])
	if err != nil {
		t.Fatal(err)
	}
	check(7, got)
}

// Rows of an equal-length batch give the logits of the same rows forwarded alone.
func TestBatchedEqualsSingle(t *testing.T) {
	m := newTestModel(t, Tiny, 9)
	rng := rand.New(rand.NewPCG(9, 9))
	B, T := 3, 33
	batch, targets := make([][]int, B), make([][]int, B)
	for b := range batch {
		batch[b], targets[b] = randomIDs(rng, T, Tiny.VocabSize), randomIDs(rng, T, Tiny.VocabSize)
	}
	all, err := m.Forward(batch, targets)
	if err != nil {
		t.Fatal(err)
	}
	last, err := m.Forward(batch, nil)
	if err != nil {
		t.Fatal(err)
	}
	var loss float64
	for b := range batch {
		one, err := m.Forward(batch[b:b+1], targets[b:b+1])
		if err != nil {
			t.Fatal(err)
		}
		loss += float64(one.Loss) / float64(B)
		for tt := 0; tt < T; tt++ {
			if d := maxDiff(all.Row(b, tt), one.Row(0, tt)); d > 1e-5 {
				t.Errorf("row %d position %d: batched vs single max |diff| %g", b, tt, d)
			}
		}
		if d := maxDiff(last.Row(b, 0), one.Row(0, T-1)); d > 1e-5 {
			t.Errorf("row %d: last-position batched vs single max |diff| %g", b, d)
		}
	}
	if math.Abs(loss-float64(all.Loss)) > 1e-5 {
		t.Errorf("batched loss %.6f, mean of single losses %.6f", all.Loss, loss)
	}
}

// The study (package study): a forward with targets over 92 positions of GPT-2 small at init gives
// logits (1, 92, 50257) and a loss near ln 50257 ≈ 10.8.
func TestForwardSmall92(t *testing.T) {
	if testing.Short() {
		t.Skip("GPT-2 small: 124M parameters")
	}
	m, err := New(Small)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(1337, true)
	rng := rand.New(rand.NewPCG(92, 92))
	ids := randomIDs(rng, 93, Small.VocabSize)
	out, err := m.Forward([][]int{ids[:92]}, [][]int{ids[1:]})
	if err != nil {
		t.Fatal(err)
	}
	if out.B != 1 || out.T != 92 || out.V != 50257 || len(out.Logits) != 92*50257 {
		t.Errorf("logits shape (%d, %d, %d), %d numbers; want (1, 92, 50257)", out.B, out.T, out.V, len(out.Logits))
	}
	ln := math.Log(50257)
	t.Logf("GPT-2 small at init, 92 positions: loss %.4f, ln 50257 = %.4f", out.Loss, ln)
	if math.Abs(float64(out.Loss)-ln) > 0.15 {
		t.Errorf("loss %.4f, want ≈ ln 50257 = %.4f", out.Loss, ln)
	}
}
