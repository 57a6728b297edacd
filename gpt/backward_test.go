package gpt

import (
	"github.com/gptnotes/gptnotes/gpt/internal/fast"

	"math/rand/v2"
	"testing"
)

// gradCheckConfig is small enough to check every parameter by finite differences;
// blockCheckConfig has room for more positions than one attention query block.
var (
	gradCheckConfig  = Config{VocabSize: 48, BlockSize: 8, Layers: 2, Heads: 2, Channels: 12}
	blockCheckConfig = Config{VocabSize: 64, BlockSize: 80, Layers: 2, Heads: 2, Channels: 16}
)

func randomBatch(rng *rand.Rand, B, T, V int) (x, y [][]int) {
	x, y = make([][]int, B), make([][]int, B)
	for b := range x {
		x[b], y[b] = make([]int, T), make([]int, T)
		for t := range x[b] {
			x[b][t], y[b][t] = rng.IntN(V), rng.IntN(V)
		}
	}
	return x, y
}

// perturb moves every parameter away from GPT-2's init (LayerNorm weights off 1, biases off
// 0, larger matrices) so that every term of the backward pass carries a visible gradient.
func perturb(p *Params, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := range p.Data {
		p.Data[i] += float32(rng.NormFloat64() * 0.2)
	}
}

func checkGrads(t *testing.T, rows []GradCheckRow, tol float64) {
	t.Helper()
	for _, r := range rows {
		t.Log(r)
		if r.AnalyticNorm == 0 {
			t.Errorf("%s: zero gradient", r.Tensor)
		}
		if !(r.RelErr <= tol) {
			t.Errorf("%s: relative error %.3g > %g", r.Tensor, r.RelErr, tol)
		}
	}
}

// TestBackwardMatchesFiniteDifferences checks every entry of every parameter tensor.
func TestBackwardMatchesFiniteDifferences(t *testing.T) {
	m, err := New(gradCheckConfig)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(1, true)
	perturb(m.Params, 2)
	x, y := randomBatch(rand.New(rand.NewPCG(3, 3)), 2, 8, gradCheckConfig.VocabSize)
	y[1][3] = IgnoreTarget
	rows, err := GradCheck(m, x, y, 1e-2, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(m.Params.Tensors) {
		t.Fatalf("%d rows for %d tensors", len(rows), len(m.Params.Tensors))
	}
	checkGrads(t, rows, 1e-2)
}

// TestBackwardAcrossQueryBlocks checks sampled entries with T longer than the attention
// kernel's query block, so the blocked backward meets the causal diagonal more than once.
func TestBackwardAcrossQueryBlocks(t *testing.T) {
	m, err := New(blockCheckConfig)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(4, true)
	perturb(m.Params, 5)
	T := fast.QBlock + 13
	x, y := randomBatch(rand.New(rand.NewPCG(6, 6)), 2, T, blockCheckConfig.VocabSize)
	rows, err := GradCheck(m, x, y, 1e-2, 12)
	if err != nil {
		t.Fatal(err)
	}
	checkGrads(t, rows, 1e-2)
}

func TestBackwardNeedsForwardWithTargets(t *testing.T) {
	m, _ := New(gradCheckConfig)
	m.Init(1, true)
	if err := m.Backward(); err == nil {
		t.Error("Backward before any Forward: no error")
	}
	if _, err := m.Forward([][]int{{1, 2, 3}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := m.Backward(); err == nil {
		t.Error("Backward after a Forward without targets: no error")
	} else {
		t.Log(err)
	}
}

// TestOverfitOneBatch trains on a single batch until the loss is under 0.1: forward,
// backward and AdamW together can drive the loss to zero.
func TestOverfitOneBatch(t *testing.T) {
	cfg := Config{VocabSize: 64, BlockSize: 16, Layers: 2, Heads: 2, Channels: 32}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(7, true)
	x, y := randomBatch(rand.New(rand.NewPCG(8, 8)), 4, 16, cfg.VocabSize)
	opt := NewAdamW(m.Params)
	var loss float32
	for step := 0; step < 300; step++ {
		out, err := m.Forward(x, y)
		if err != nil {
			t.Fatal(err)
		}
		loss = out.Loss
		if step%50 == 0 {
			t.Logf("step %d: loss %.4f", step, loss)
		}
		if loss < 0.1 {
			t.Logf("step %d: loss %.4f < 0.1", step, loss)
			return
		}
		if err := m.Backward(); err != nil {
			t.Fatal(err)
		}
		if _, err := opt.Update(m.Params, m.Grads, 1e-2); err != nil {
			t.Fatal(err)
		}
	}
	t.Errorf("after 300 steps on one batch the loss is %.4f, want < 0.1", loss)
}
