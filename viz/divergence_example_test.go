package viz_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

// The comparisons below are made up from a seeded generator, shaped like real runs, so the
// golden images test the drawing and not the model's arithmetic.

func ExamplePrecisionDivergence() {
	rng := rand.New(rand.NewPCG(11, 12))
	c := &gpt.PrecisionComparison{Split: 3}
	for n := 1; n <= 40; n++ {
		s := gpt.PrecisionStep{N: n, FP32: n % 12, BF16: n % 12,
			MaxDiff: 0.3 * math.Exp(0.4*rng.NormFloat64()), Gap: math.Abs(1.5 * rng.NormFloat64())}
		s.MaxDiffShifted = s.MaxDiff * 0.6
		if n == 3 {
			s.Gap, s.FP32, s.BF16 = 0.05, 2, 3
		}
		if n >= 3 {
			s.MaxDiff, s.MaxDiffShifted = 4*s.MaxDiff, 4*s.MaxDiffShifted
		}
		c.Steps = append(c.Steps, s)
	}
	vocab := words{" were", " not", " working", " being", " run", " on", " the", " same", " system", ".", " it", " and"}
	if err := viz.Save(viz.PrecisionDivergence(c, vocab), "testdata/precision.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Println("split at step", c.Split)
	// Output:
	// split at step 3
}

func ExampleCachingDifference() {
	rng := rand.New(rand.NewPCG(13, 14))
	c := &gpt.CachingComparison{NarrowestGap: math.Inf(1)}
	for n := 1; n <= 200; n++ {
		shift := 0.008 * math.Exp(0.2*rng.NormFloat64())
		s := gpt.CachingStep{N: n, MaxDiff: shift + 0.0005*math.Abs(rng.NormFloat64()),
			MaxDiffShifted: 0.0004 * math.Exp(0.3*rng.NormFloat64()), Shift: shift,
			GapChange: 0.00002 * math.Abs(rng.NormFloat64()), Gap: 0.004 + math.Abs(2*rng.NormFloat64())}
		if n == 1 {
			s.MaxDiff, s.MaxDiffShifted, s.Shift, s.GapChange = 0, 0, 0, 0 // the prefill is the same forward
		}
		if s.Gap < c.NarrowestGap {
			c.NarrowestGap, c.NarrowestStep = s.Gap, n
		}
		c.Steps = append(c.Steps, s)
	}
	if err := viz.Save(viz.CachingDifference(c), "testdata/caching.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("narrowest gap %.3f at step %d\n", c.NarrowestGap, c.NarrowestStep)
	// Output:
	// narrowest gap 0.007 at step 49
}
