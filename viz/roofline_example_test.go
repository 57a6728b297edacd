package viz_test

import (
	"fmt"
	"log"

	"github.com/gptnotes/gptnotes/gpt/bench"
	"github.com/gptnotes/gptnotes/viz"
	"github.com/gptnotes/gptnotes/viz/internal/golden"
)

// A real run on this project's shared two-core machine (testdata/roofline.json, go run -tags
// openblas ./viz/internal/goldendata roofline): GPT-2 Small's shapes at random init, the
// forward's products and attention over 1,024 positions, prompts of 1,024 tokens and 128
// decode steps in fp32 and bf16, while other work held most of the cores (load 13–16, so the
// ceilings and the rates are a fraction of an idle run's; the shape is the same).
func ExampleRoofline() {
	var r bench.Report
	if err := golden.Read("roofline", &r); err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(viz.Roofline(&r), "testdata/roofline.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ridge at %.0f FLOP/byte\n", r.Ceilings.Ridge())
	for _, pt := range r.Roofline.Points {
		side := "memory"
		if pt.Intensity() > r.Ceilings.Ridge() {
			side = "arithmetic"
		}
		fmt.Printf("%-36s %6.1f FLOP/byte: %s\n", pt.Name, pt.Intensity(), side)
	}
	// Output:
	// ridge at 6 FLOP/byte
	// attn.c_attn (1024×768 · 768×2304)     184.2 FLOP/byte: arithmetic
	// attn.c_proj (1024×768 · 768×768)      139.6 FLOP/byte: arithmetic
	// mlp.c_fc (1024×768 · 768×3072)        191.9 FLOP/byte: arithmetic
	// mlp.c_proj (1024×3072 · 3072×768)     192.0 FLOP/byte: arithmetic
	// lm_head (1024×768 · 768×50257)        217.5 FLOP/byte: arithmetic
	// attention (1024 positions, 12 heads)  128.1 FLOP/byte: arithmetic
	// prompt fp32 pp1024                    337.3 FLOP/byte: arithmetic
	// decode step fp32 tg128                  0.5 FLOP/byte: memory
	// prompt bf16 pp1024                    674.6 FLOP/byte: arithmetic
	// decode step bf16 tg128                  1.0 FLOP/byte: memory
}
