package viz_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/gptnotes/gptnotes/gpt"
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

func ExampleAttentionHeads() {
	// A made-up trace of 12 tokens queried at the last position: 2 layers of 6 heads, each
	// row a seeded causal softmax (the last row of causalSoftmax).
	tokens := words{"func", " main", "()", " {", "\n\t", "fmt", ".", "Println", "(\"", "hello", "\")", "\n}"}
	T := len(tokens)
	tr := &gpt.Trace{IDs: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, Position: T - 1}
	for l := 0; l < 2; l++ {
		var heads [][]float32
		for h := 0; h < 6; h++ {
			w := causalSoftmax(T, uint64(10*l+h))
			heads = append(heads, w[(T-1)*T:])
		}
		tr.Attention = append(tr.Attention, heads)
	}
	p, err := viz.AttentionHeads(tr, 1, tokens)
	if err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(p, "testdata/attention_heads.png"); err != nil {
		log.Fatal(err)
	}
	_, err = viz.AttentionHeads(tr, 2, tokens)
	fmt.Println(err)
	// Output:
	// viz: attention heads: no layer 2 in a 2-layer trace
}
