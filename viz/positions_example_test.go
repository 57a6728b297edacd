package viz_test

import (
	"fmt"
	"log"
	"os"
	"time"

	"github.com/gptnotes/gptnotes/viz"
)

func ExamplePositions() {
	var news []int
	for n := 16; n <= 512; n += 16 {
		news = append(news, n)
	}
	counts := viz.CountPositions(11, news)
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
	s := viz.SliderPositions(viz.CountPositions(11, news))
	if err := os.WriteFile("testdata/slider_positions.html", []byte(s.HTML()), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(s.Frames), "frames;", s.Frames[15].Caption)
	// Output:
	// 32 frames; 11-token prompt, 256 new tokens: 35,456 positions without a cache, 266 with one (133×)
}
