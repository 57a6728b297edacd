package viz_test

import (
	"fmt"
	"log"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
	"github.com/gptnotes/gptnotes/viz/internal/golden"
)

// The shipped model against its bf16 twin (testdata/precision.json, go run
// ./viz/internal/goldendata precision).
func ExamplePrecisionDivergence() {
	var p golden.Precision
	if err := golden.Read("precision", &p); err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(viz.PrecisionDivergence(p.Comparison, p.Vocab), "testdata/precision.png"); err != nil {
		log.Fatal(err)
	}
	s := p.Comparison.Steps[p.Comparison.Split-1]
	fmt.Printf("split at step %d: %q vs %q\n", p.Comparison.Split, p.Vocab.Decode([]int{s.FP32}), p.Vocab.Decode([]int{s.BF16}))
	// Output:
	// split at step 7: "\n\t" vs "\n"
}

// The shipped model's cached loop against its uncached one (testdata/caching.json, go run
// ./viz/internal/goldendata caching).
func ExampleCachingDifference() {
	var c gpt.CachingComparison
	if err := golden.Read("caching", &c); err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(viz.CachingDifference(&c), "testdata/caching.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d steps, narrowest gap %.3f at step %d\n", len(c.Steps), c.NarrowestGap, c.NarrowestStep)
	// Output:
	// 200 steps, narrowest gap 0.010 at step 169
}
