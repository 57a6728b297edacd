package viz_test

import (
	"fmt"
	"log"

	"github.com/gptnotes/gptnotes/gpt/bench"
	"github.com/gptnotes/gptnotes/viz"
	"github.com/gptnotes/gptnotes/viz/internal/golden"
)

// A real run on this project's two-core machine, idle then (testdata/roofline.json, go run
// -tags openblas ./viz/internal/goldendata roofline; load 0.1 when the probes began, 1.1 at
// the end): GPT-2 Small's shapes at random init, the forward's products and attention over
// 1,024 positions, prompts of 1,024 tokens and 128 decode steps in fp32 and bf16. The CPU has
// AVX-512 BF16, so the run measured a bf16 peak: its roof is drawn at the report's
// Ceilings.BF16PeakTotal, with its ridge, and the bf16 prompt sits under it, not under the
// FMA peak (the golden image, testdata/roofline_golden.png, holds the roof where it is drawn).
func ExampleRoofline() {
	var r bench.Report
	if err := golden.Read("roofline", &r); err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(viz.Roofline(&r), "testdata/roofline.png"); err != nil {
		log.Fatal(err)
	}
	c := r.Ceilings
	fmt.Printf("FMA peak %.0f GFLOP/s, ridge at %.0f FLOP/byte\n", c.PeakTotal, c.Ridge())
	fmt.Printf("bf16 peak %.0f GFLOP/s, ridge at %.0f FLOP/byte\n", c.BF16PeakTotal, c.RidgeBF16())
	for _, pt := range r.Roofline.Points {
		fmt.Printf("%-36s %6.1f FLOP/byte: %s\n", pt.Name, pt.Intensity(), pt.Bound)
	}
	// Output:
	// FMA peak 225 GFLOP/s, ridge at 4 FLOP/byte
	// bf16 peak 893 GFLOP/s, ridge at 17 FLOP/byte
	// attn.c_attn (1024×768 · 768×2304)     184.2 FLOP/byte: FMA peak
	// attn.c_proj (1024×768 · 768×768)      139.6 FLOP/byte: FMA peak
	// mlp.c_fc (1024×768 · 768×3072)        191.9 FLOP/byte: FMA peak
	// mlp.c_proj (1024×3072 · 3072×768)     192.0 FLOP/byte: FMA peak
	// lm_head (1024×768 · 768×50257)        217.5 FLOP/byte: FMA peak
	// attention (1024 positions, 12 heads)  128.1 FLOP/byte: FMA peak
	// prompt fp32 pp1024                    337.3 FLOP/byte: FMA peak
	// decode step fp32 tg128                  0.5 FLOP/byte: memory stream
	// prompt bf16 pp1024                    674.6 FLOP/byte: bf16 peak
	// decode step bf16 tg128                  1.0 FLOP/byte: memory stream
}
