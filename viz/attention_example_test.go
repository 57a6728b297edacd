package viz_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/gptnotes/gptnotes/viz"
)

// causalSoftmax turns seeded random scores into attention weights (T, T): row q is a softmax
// over keys 0…q, zero above the diagonal, as one head of a causal model produces.
func causalSoftmax(T int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 5))
	w := make([]float32, T*T)
	for q := 0; q < T; q++ {
		sum := 0.0
		e := make([]float64, q+1)
		for k := 0; k <= q; k++ {
			e[k] = math.Exp(2 * rng.NormFloat64())
			sum += e[k]
		}
		for k := 0; k <= q; k++ {
			w[q*T+k] = float32(e[k] / sum)
		}
	}
	return w
}

func ExampleAttentionMap() {
	tokens := []string{"func", " main", "()", " {", "\n\t", "fmt", ".", "Println", "(\"", "hello", "\")", "\n}"}
	p, err := viz.AttentionMap(causalSoftmax(len(tokens), 1), tokens, 3, 5)
	if err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(p, "testdata/attention.png"); err != nil {
		log.Fatal(err)
	}
	_, err = viz.AttentionMap(make([]float32, 10), nil, 0, 0)
	fmt.Println(err)
	// Output:
	// viz: attention map: 10 weights is not a square (T, T) matrix
}
