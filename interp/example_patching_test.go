package interp_test

import (
	"fmt"
	"log"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/interp"
)

// Attribution patching estimates what patching each head would do from one forward and
// one backward; on a small model the estimate can be checked against the real thing
// (2 forwards per head). Path patching asks how much of one head's effect goes through
// one later head: here, head 0.2 restores a third of the answer, but not through 1.3.
func ExampleAttributionPatching() {
	m, err := gpt.New(gpt.Config{VocabSize: 64, BlockSize: 32, Layers: 2, Heads: 4, Channels: 16})
	if err != nil {
		log.Fatal(err)
	}
	m.Init(3, true)
	clean := []int{1, 10, 20, 30, 40, 1, 10, 20, 30, 40, 1}
	corrupted := []int{1, 10, 20, 30, 40, 1, 11, 21, 31, 41, 1}
	p := gpt.Patching{Clean: clean, Corrupted: corrupted, Right: 10, Wrong: 11}
	real, err := interp.HeadPatching(m, p)
	if err != nil {
		log.Fatal(err)
	}
	est, err := interp.AttributionPatching(m, p)
	if err != nil {
		log.Fatal(err)
	}
	path, err := interp.PathPatching(m, p, [2]int{0, 2}, [2]int{1, 3})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(real)
	fmt.Println(est)
	fmt.Printf("Pearson over the 8 heads: %.2f\n", interp.Pearson(real, est))
	fmt.Printf("head 0.2 restores %.3f, through head 1.3 alone %.3f\n", real.Values[0][2], path)
	// Output:
	// patching each head's z: logit difference restored
	// layer \ head:        0        1        2        3
	//     0          -0.050   -0.215    0.329   -0.060
	//     1          -0.948   -0.240   -0.162    2.570
	// attribution patching: estimated logit difference restored
	// layer \ head:        0        1        2        3
	//     0          -0.051   -0.219    0.290   -0.063
	//     1          -0.950   -0.243   -0.162    2.561
	// Pearson over the 8 heads: 1.00
	// head 0.2 restores 0.329, through head 1.3 alone -0.035
}
