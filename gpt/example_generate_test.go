package gpt_test

import (
	"fmt"

	"github.com/gptnotes/gptnotes/gpt"
)

// The policy prints every setting, so it can be logged with every output.
func ExamplePolicy() {
	fmt.Println(gpt.Greedy)
	fmt.Println(gpt.NanoGPT)
	fmt.Println(gpt.Policy{Temperature: -1}.Validate())
	// Output:
	// temperature 0 (argmax), top-k off, top-p off, seed 0
	// temperature 0.8, top-k 200, top-p off, seed 1337
	// gpt: policy: temperature -1, want a finite number ≥ 0 (0 = argmax)
}

// Positions pushed through the stack, on paper: the study's 11-token prompt.
func ExamplePositions() {
	for _, n := range []int{64, 256, 512} {
		u, c := gpt.Positions(11, n)
		fmt.Printf("%d new tokens: %s uncached, %d cached, %.0fx\n", n, gpt.Commas(u), c, float64(u)/float64(c))
	}
	// Output:
	// 64 new tokens: 2,720 uncached, 74 cached, 37x
	// 256 new tokens: 35,456 uncached, 266 cached, 133x
	// 512 new tokens: 136,448 uncached, 522 cached, 261x
}

// The KV cache is budgeted like the weights: 2·L·T·C numbers per sequence.
func ExampleCacheBytes() {
	fmt.Println(gpt.Commas(gpt.CacheBytes(gpt.Small, 1, 4)), "bytes per position, GPT-2 Small fp32")
	fmt.Println(gpt.MB(gpt.CacheBytes(gpt.Small, 1024, 4)), "for 1,024 positions")
	xl := gpt.Budget(1, 1024).Rows[7]
	fmt.Printf("%s %s: weights %s, cache %s per sequence, %.0f sequences = the weights\n",
		xl.Name, xl.Format, gpt.MB(xl.Weights), gpt.MB(xl.PerSequence), xl.Equal)
	// Output:
	// 73,728 bytes per position, GPT-2 Small fp32
	// 75.5 MB for 1,024 positions
	// xl bf16: weights 3.1 GB, cache 314.6 MB per sequence, 10 sequences = the weights
}

// Measuring a distribution: a confident one and a flat one.
func ExampleNucleusSize() {
	confident := []float32{5, 1, 0.5, 0, 0, 0, 0, 0}
	flat := []float32{1, 1, 1, 1, 1, 1, 1, 1}
	for _, l := range [][]float32{confident, flat} {
		n, _ := gpt.NucleusSize(l, 1, 0.9)
		h, _ := gpt.Entropy(l, 1)
		m, _ := gpt.TopKMass(l, 1, 2)
		fmt.Printf("90%% of the mass in %d tokens, entropy %.2f bits, top-2 hold %.0f%%\n", n, h, 100*m)
	}
	// Output:
	// 90% of the mass in 1 tokens, entropy 0.48 bits, top-2 hold 96%
	// 90% of the mass in 8 tokens, entropy 3.00 bits, top-2 hold 25%
}

// Stepping through generation with the cache: the prompt is forwarded once, then one
// position per token, the cache growing by one position per step.
func ExampleGenerator() {
	m, _ := gpt.New(gpt.Tiny)
	m.Init(1, true)
	g, _ := gpt.NewGenerator(m, []int{1, 2, 3, 4, 5}, gpt.Greedy, true)
	steps, _ := g.Steps(4)
	for _, s := range steps {
		fmt.Printf("step %d: forwarded %d, total %d, cache %d positions of %s bytes\n",
			s.N, s.Forwarded, s.Total, s.CacheLen, gpt.Commas(s.CacheBytes))
	}
	fmt.Println(g.Mode())
	// Output:
	// step 1: forwarded 5, total 5, cache 5 positions of 32,768 bytes
	// step 2: forwarded 1, total 6, cache 6 positions of 32,768 bytes
	// step 3: forwarded 1, total 7, cache 7 positions of 32,768 bytes
	// step 4: forwarded 1, total 8, cache 8 positions of 32,768 bytes
	// cached, window 64, keep 64 after a crop
}
