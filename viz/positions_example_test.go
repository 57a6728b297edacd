package viz_test

import (
	"fmt"
	"log"
	"os"

	"github.com/gptnotes/gptnotes/viz"
	"github.com/gptnotes/gptnotes/viz/internal/golden"
)

func ExamplePositions() {
	var news []int
	for n := 16; n <= 512; n += 16 {
		news = append(news, n)
	}
	counts := viz.CountPositions(11, news)
	// The shipped model's cached and uncached loops timed on a loaded two-core machine
	// (testdata/positions.json, go run ./viz/internal/goldendata positions).
	var run golden.Positions
	if err := golden.Read("positions", &run); err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(viz.Positions(counts, run.Timings), "testdata/positions.png"); err != nil {
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
