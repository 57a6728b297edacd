package viz_test

import (
	"fmt"
	"log"
	"os"

	"github.com/gptnotes/gptnotes/viz"
	"github.com/gptnotes/gptnotes/viz/internal/golden"
)

// sweeps reads the shipped model's next-token distributions after three prompts, from open to
// nearly certain, swept over the temperature (testdata/nucleus.json, go run
// ./viz/internal/goldendata nucleus).
func sweeps() []viz.TemperatureSweep {
	var ss []viz.TemperatureSweep
	if err := golden.Read("nucleus", &ss); err != nil {
		log.Fatal(err)
	}
	return ss
}

func ExampleTopP() {
	ss := sweeps()
	if err := viz.Save(viz.TopP(ss), "testdata/nucleus.png"); err != nil {
		log.Fatal(err)
	}
	for _, s := range ss {
		i := s.At(1)
		fmt.Printf("%-27s T=1: %4d tokens hold 90%%, top-200 keeps %.2f, %.1f bits\n", s.Prompt, s.NucleusSizes[i], s.Top200Mass[i], s.EntropyBits)
	}
	// Output:
	// "// Package "               T=1: 1475 tokens hold 90%, top-200 keeps 0.59, 9.4 bits
	// "for i := 0; i < len(s); i" T=1:  144 tokens hold 90%, top-200 keeps 0.92, 5.8 bits
	// "func main() {\n\t"         T=1:    1 tokens hold 90%, top-200 keeps 1.00, 0.1 bits
}

func ExampleSliderTemperature() {
	s := viz.SliderTemperature(sweeps())
	if err := os.WriteFile("testdata/slider_temperature.html", []byte(s.HTML()), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(s.Frames), "frames;", s.Controls[0].Values[s.Controls[0].Start])
	// Output:
	// 20 frames; 1.0
}
