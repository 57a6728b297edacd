package gpt_test

import (
	"fmt"
	"math"

	"github.com/gptnotes/gptnotes/gpt"
)

// A forward pass with targets: the logits of every position and the mean cross-entropy,
// which at init is close to ln V (every token about equally likely).
func ExampleModel_Forward() {
	m, _ := gpt.New(gpt.Tiny)
	m.Init(1, true)
	tokens := []int{5, 17, 300, 42, 8, 99, 100, 7}
	out, _ := m.Forward([][]int{tokens[:7]}, [][]int{tokens[1:]})
	fmt.Printf("logits (%d, %d, %d), loss %.2f, ln %d = %.2f\n", out.B, out.T, out.V, out.Loss, gpt.Tiny.VocabSize, math.Log(512))

	last, _ := m.Forward([][]int{tokens[:7]}, nil)
	fmt.Printf("without targets: logits (%d, %d, %d), loss %v\n", last.B, last.T, last.V, last.Loss)
	// Output:
	// logits (1, 7, 512), loss 6.30, ln 512 = 6.24
	// without targets: logits (1, 1, 512), loss NaN
}

// The position table has BlockSize rows: a longer sequence has no position embedding.
// An Output prints its shape and its loss; without targets there is no loss to print.
func ExampleOutput_String() {
	m, _ := gpt.New(gpt.Tiny)
	m.Init(1, true)
	tokens := []int{5, 17, 300, 42, 8, 99, 100, 7}
	out, _ := m.Forward([][]int{tokens[:7]}, [][]int{tokens[1:]})
	last, _ := m.Forward([][]int{tokens[:7]}, nil)
	fmt.Println(out)
	fmt.Println(last)
	// Output:
	// logits (1, 7, 512), loss 6.299
	// logits (1, 1, 512), no loss (no targets)
}

func ExampleModel_Forward_blockSize() {
	cfg := gpt.Config{VocabSize: 100, BlockSize: 1024, Layers: 1, Heads: 1, Channels: 8}
	m, _ := gpt.New(cfg)
	_, err := m.Forward([][]int{make([]int, 1100)}, nil)
	fmt.Println(err)
	// Output:
	// gpt: forward: Cannot forward sequence of length 1100, block size is only 1024
}

// The cached loop computes only the new position each step and gives the logits of the
// full forward.
func ExampleModel_ForwardCached() {
	m, _ := gpt.New(gpt.Tiny)
	m.Init(2, true)
	tokens := []int{11, 22, 33, 44, 55, 66}
	c := m.NewCache()
	m.ForwardCached(c, tokens[:5])              // the prompt, at once
	cached, _ := m.ForwardCached(c, tokens[5:]) // one more token
	full, _ := m.Forward([][]int{tokens}, nil)
	var worst float64
	for i := range cached {
		worst = math.Max(worst, math.Abs(float64(cached[i]-full.Logits[i])))
	}
	fmt.Println("positions cached:", c.Len(), "of", c.Cap())
	fmt.Println("max |Δlogit| below 1e-4:", worst < 1e-4)
	// Output:
	// positions cached: 6 of 64
	// max |Δlogit| below 1e-4: true
}

// The KV cache of one GPT-2 small sequence: 2·L·T·C numbers.
func ExampleKVCache_Bytes() {
	m, _ := gpt.New(gpt.Small)
	c := m.NewCache()
	fmt.Printf("%s bytes, %s per position\n", gpt.Commas(c.Bytes()), gpt.Commas(c.Bytes()/c.Cap()))
	// Output:
	// 75,497,472 bytes, 73,728 per position
}

// Rounding to bfloat16 keeps 8 significant bits; ties go to the even neighbour.
func ExampleRoundBF16() {
	fmt.Println(gpt.RoundBF16(1.0/3), gpt.RoundBF16(1+1.0/256), gpt.RoundBF16(1+3.0/256))
	// Output:
	// 0.33398438 1 1.015625
}

// How the residual stream grows through 8 untrained blocks, plain and scaled init.
func ExampleResidualGrowth() {
	cfg := gpt.Config{VocabSize: 256, BlockSize: 32, Layers: 8, Heads: 4, Channels: 128}
	for _, scaled := range []bool{false, true} {
		g, _ := gpt.ResidualGrowth(cfg, 1, scaled, 32)
		fmt.Printf("scaled %v: ‖x_8‖/‖x_0‖ ≈ %.0f\n", scaled, g.Final())
	}
	// Output:
	// scaled false: ‖x_8‖/‖x_0‖ ≈ 7
	// scaled true: ‖x_8‖/‖x_0‖ ≈ 2
}

// A trace records the residual stream's norm after the embedding and every block, one
// query's attention in every layer and head, and the time of each stage; tr.HTML() shows
// it all in a notebook cell.
func ExampleModel_Trace() {
	m, _ := gpt.New(gpt.Tiny)
	m.Init(3, true)
	tr, _ := m.Trace([]int{1, 2, 3, 4, 5, 6, 7, 8}, gpt.TraceOptions{Position: -1})
	fmt.Println("norm rows:", len(tr.Norms), "stages:", len(tr.Stages))
	fmt.Printf("position %d attends to %d keys in layer 1, head 0\n", tr.Position, len(tr.Attention[0][0]))
	fmt.Printf("growth over the embedding after block 2: %.2fx\n", tr.MeanNorms[2]/tr.MeanNorms[0])
	// Output:
	// norm rows: 3 stages: 4
	// position 7 attends to 8 keys in layer 1, head 0
	// growth over the embedding after block 2: 1.04x
}

// The same prompt alone and eight times in one batch: our products keep the order of every
// row's sums from 6 positions on, a split-K product whose plan follows the batch does not.
func ExampleCompareBatchInvariance() {
	m, _ := gpt.New(gpt.Tiny)
	m.Init(1, true)
	r, err := gpt.CompareBatchInvariance(m, []int{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5}, 8)
	if err != nil {
		panic(err)
	}
	fmt.Println("split-K chunks alone and batched:", r.SplitsAlone, r.SplitsBatched)
	fmt.Println("ours moved:", r.Ours != 0)
	fmt.Println("split-K moved:", r.SplitK != 0)
	// Output:
	// split-K chunks alone and batched: 8 2
	// ours moved: false
	// split-K moved: true
}

// The stale-cache bug on purpose: a cached loop that crops its window by shifting the cache
// instead of re-prefilling gets other logits from the first crop on, and no error.
func ExampleCompareCrop() {
	m, _ := gpt.New(gpt.Tiny)
	m.Init(11, true)
	c, err := gpt.CompareCrop(m, []int{1, 2, 3, 4, 5, 6, 7, 8}, 24, 12)
	if err != nil {
		panic(err)
	}
	fmt.Println("first crop at step", c.FirstCrop)
	fmt.Println("equal before it:", c.BeforeCrop == 0)
	fmt.Println("wrong after it:", c.AfterCrop > 1e-3)
	// Output:
	// first crop at step 6
	// equal before it: true
	// wrong after it: true
}

func ExampleFirstRepeat() {
	at, back := gpt.FirstRepeat([]int{7, 1, 2, 3, 9, 1, 2, 3}, 3)
	fmt.Println(at, back)
	at, _ = gpt.FirstRepeat([]int{1, 2, 3, 4}, 2)
	fmt.Println(at)
	// Output:
	// 5 4
	// -1
}

// Preset reads a table of its own: what a caller does to Small or Presets changes nothing it
// returns, so a notebook's check can compare with it.
func ExamplePreset() {
	saved := gpt.Small
	gpt.Small = gpt.Config{}
	fmt.Println(gpt.Preset("small").NumParams(), gpt.Preset("small") == saved, gpt.Preset("nano") == gpt.Config{})
	gpt.Small = saved
	// Output: 124439808 true true
}
