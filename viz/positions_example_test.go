package viz_test

import (
	"fmt"
	"log"
	"os"
	"time"

	"github.com/gptnotes/gptnotes/viz"
)

// positionCounts counts positions the way a generation loop pushes them: the uncached loop
// re-runs the whole context at every step, the cached loop runs the prompt once, then one token.
func positionCounts(prompt int, news []int) []viz.PositionCount {
	var cs []viz.PositionCount
	for _, n := range news {
		un := 0
		for step := 0; step < n; step++ {
			un += prompt + step
		}
		cs = append(cs, viz.PositionCount{Prompt: prompt, NewTokens: n, Uncached: un, Cached: prompt + n - 1})
	}
	return cs
}

func ExamplePositions() {
	var news []int
	for n := 16; n <= 512; n += 16 {
		news = append(news, n)
	}
	counts := positionCounts(11, news)
	// Timings as measured on a laptop in the study (cached 1 s per 64 tokens, for the figure).
	timings := []viz.DecodeTiming{
		{NewTokens: 64, Cached: 1400 * time.Millisecond, Uncached: 4060 * time.Millisecond},
		{NewTokens: 256, Cached: 5600 * time.Millisecond, Uncached: 28 * time.Second},
		{NewTokens: 512, Cached: 11200 * time.Millisecond, Uncached: 82880 * time.Millisecond},
	}
	if err := viz.Save(viz.Positions(counts, timings), "testdata/positions.png"); err != nil {
		log.Fatal(err)
	}
	c := counts[15]
	fmt.Printf("%d new tokens: %d uncached, %d cached, %s\n", c.NewTokens, c.Uncached, c.Cached, viz.Ratio(c.Ratio()))
	// Output:
	// 256 new tokens: 35456 uncached, 266 cached, 133×
}

func ExampleSliderPositions() {
	var news []int
	for n := 16; n <= 512; n += 16 {
		news = append(news, n)
	}
	s := viz.SliderPositions(positionCounts(11, news))
	if err := os.WriteFile("testdata/slider_positions.html", []byte(s.HTML()), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(s.Frames), "frames;", s.Frames[15].Caption)
	// Output:
	// 32 frames; 11-token prompt, 256 new tokens: 35,456 positions without a cache, 266 with one (133×)
}
