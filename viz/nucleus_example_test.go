package viz_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"

	"github.com/gptnotes/gptnotes/viz"
)

// zipfLogits makes a next-token distribution over V tokens whose probabilities fall off like a
// power of the rank (steeper = more certain), shuffled by a seeded generator.
func zipfLogits(V int, steep float64, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 7))
	l := make([]float32, V)
	for i, r := range rng.Perm(V) {
		l[i] = float32(-steep*logf(float64(r+1)) + 0.3*rng.NormFloat64())
	}
	return l
}

func temperatures() []float64 {
	var ts []float64
	for i := 1; i <= 20; i++ {
		ts = append(ts, float64(i)/10)
	}
	return ts
}

func sweeps() []viz.TemperatureSweep {
	var ss []viz.TemperatureSweep
	for i, p := range []struct {
		prompt string
		steep  float64
	}{{"an open prompt", 1.1}, {"func main() {", 2}, {"import numpy as", 3}} {
		s, err := viz.SweepTemperature(p.prompt, zipfLogits(4096, p.steep, uint64(i)), 0.9, temperatures())
		if err != nil {
			log.Fatal(err)
		}
		ss = append(ss, s)
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
		fmt.Printf("%-16s T=1: %4d tokens hold 90%%, top-200 keeps %.2f, %.1f bits\n", s.Prompt, s.NucleusSizes[i], s.Top200Mass[i], s.EntropyBits)
	}
	// Output:
	// an open prompt   T=1: 1112 tokens hold 90%, top-200 keeps 0.74, 7.9 bits
	// func main() {    T=1:    7 tokens hold 90%, top-200 keeps 1.00, 2.6 bits
	// import numpy as  T=1:    2 tokens hold 90%, top-200 keeps 1.00, 1.2 bits
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

func logf(x float64) float64 { return math.Log(x) }
