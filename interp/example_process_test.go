package interp_test

import (
	"fmt"
	"log"
	"math"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/interp"
)

// Folding LayerNorm and centring the writing weights leave the logits as they were;
// centring the unembedding lowers each position's logits by one constant, so the next
// token's probabilities stay the same.
func ExampleProcess() {
	m, err := gpt.New(gpt.Config{VocabSize: 64, BlockSize: 16, Layers: 2, Heads: 2, Channels: 16})
	if err != nil {
		log.Fatal(err)
	}
	m.Init(1, true)
	ids := []int{3, 1, 4, 1, 5, 9, 2, 6}
	orig, err := m.RunWithHooks(ids)
	if err != nil {
		log.Fatal(err)
	}
	for _, o := range []interp.ProcessOptions{{FoldLN: true, CenterWriting: true}, interp.DefaultProcessing} {
		p, err := interp.Process(m, o)
		if err != nil {
			log.Fatal(err)
		}
		out, err := p.RunWithHooks(ids)
		if err != nil {
			log.Fatal(err)
		}
		last := len(ids) - 1
		a, b := orig.Row(0, last), out.Row(0, last)
		lo, hi := math.Inf(1), math.Inf(-1)
		for v := range a {
			d := float64(b[v] - a[v])
			lo, hi = math.Min(lo, d), math.Max(hi, d)
		}
		shift := math.Round(lo*1e4) / 1e4
		if shift == 0 {
			shift = 0 // not −0
		}
		fmt.Printf("%+v: the logits move by %.4f, by the same at every token: %v\n", o, shift, hi-lo < 1e-5)
	}
	// Output:
	// {FoldLN:true CenterWriting:true CenterUnembed:false}: the logits move by 0.0000, by the same at every token: true
	// {FoldLN:true CenterWriting:true CenterUnembed:true}: the logits move by 0.0018, by the same at every token: true
}
