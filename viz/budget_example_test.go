package viz_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

func ExampleCacheBudget() {
	budget := gpt.Budget(10, 1024)
	if err := viz.Save(viz.CacheBudget(budget, 16), "testdata/budget.png"); err != nil {
		log.Fatal(err)
	}
	xl := budget.Rows[7]
	fmt.Printf("%s %s: weights %s, cache %s per sequence, ≈%.0f sequences = the weights\n",
		xl.Name, xl.Format, gpt.MB(xl.Weights), gpt.MB(xl.PerSequence), xl.Equal)
	// Output:
	// xl bf16: weights 3.1 GB, cache 314.6 MB per sequence, ≈10 sequences = the weights
}

func ExampleSliderBudget() {
	s := viz.SliderBudget(gpt.Budget(1, 1024), 16)
	h := s.HTML()
	if err := os.WriteFile("testdata/slider_budget.html", []byte(h), 0o644); err != nil {
		log.Fatal(err)
	}
	// The frame of XL, bf16, batch 10:
	fmt.Println(len(s.Frames), "frames;", s.Frames[(3*2+1)*16+9].Caption)
	fmt.Println(strings.Count(h, "<svg"), "SVG frames,", strings.Count(h, "<script>"), "script")
	// Output:
	// 128 frames; batch 10: caches 3.1 GB vs weights 3.1 GB, past the weights (they cross at ≈9.9 sequences)
	// 128 SVG frames, 1 script
}
