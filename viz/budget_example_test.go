package viz_test

import (
	"fmt"
	"log"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

func ExampleCacheBudget() {
	var budgets []viz.Budget
	for _, name := range []string{"small", "medium", "large", "xl"} {
		cfg := gpt.Presets[name]
		for _, dt := range []struct {
			name  string
			bytes int64
		}{{"fp32", 4}, {"bf16", 2}} {
			budgets = append(budgets, viz.Budget{
				Model: name, DType: dt.name, Positions: cfg.BlockSize,
				WeightBytes: int64(cfg.NumParams()) * dt.bytes,
				CacheBytes:  2 * int64(cfg.Layers*cfg.BlockSize*cfg.Channels) * dt.bytes,
			})
		}
	}
	fig := viz.CacheBudget(budgets, 16)
	if err := viz.Save(fig, "testdata/budget.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Println(budgets[7])
	// Output:
	// xl bf16: weights 3.12 GB, cache 315 MB per sequence of 1024 positions, ≈9.9 sequences = the weights
}
