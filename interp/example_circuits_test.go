package interp_test

import (
	"fmt"
	"log"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/interp"
)

// Each head's OV circuit is a C × C matrix of rank HS: its SVD comes from an HS × HS core,
// and the composition of two heads is a product of factors, never a C × C (or V × V)
// matrix multiplied out.
func ExampleHeads() {
	m, err := gpt.New(gpt.Config{VocabSize: 64, BlockSize: 16, Layers: 2, Heads: 2, Channels: 8})
	if err != nil {
		log.Fatal(err)
	}
	m.Init(1, true)
	hs, err := interp.HeadsOf(m)
	if err != nil {
		log.Fatal(err)
	}
	ov := hs.OV(0, 1)
	rows, cols := ov.Dims()
	s, _, _, err := ov.SVD()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("OV of head 0.1: %d × %d, %d singular values\n", rows, cols, len(s))
	v, err := hs.Composition("V")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("V-composition 0.1 → 1.0 in (0, 1): %v; 1.0 → 0.1 is 0: %v\n", v.At(0, 1, 1, 0) > 0 && v.At(0, 1, 1, 0) < 1, v.At(1, 0, 0, 1) == 0)
	c, err := hs.CopyingScore(0, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("copying score in [-1, 1]: %v\n", c >= -1 && c <= 1)
	// Output:
	// OV of head 0.1: 8 × 8, 4 singular values
	// V-composition 0.1 → 1.0 in (0, 1): true; 1.0 → 0.1 is 0: true
	// copying score in [-1, 1]: true
}
