package viz_test

import (
	"fmt"
	"log"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
	"github.com/gptnotes/gptnotes/viz/internal/golden"
)

// readAttention reads layer 3's patterns of the shipped model over a hello-world program
// (testdata/attention.json, go run ./viz/internal/goldendata attention).
func readAttention() golden.Attention {
	var a golden.Attention
	if err := golden.Read("attention", &a); err != nil {
		log.Fatal(err)
	}
	return a
}

func ExampleAttentionMap() {
	a := readAttention()
	p, err := viz.AttentionMap(a.Patterns[3], a.Tokens, a.Layer, 3)
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
	// A trace of the last query position, built from the stored patterns' last rows.
	a := readAttention()
	T := len(a.Tokens)
	tr := &gpt.Trace{Position: T - 1, Attention: make([][][]float32, a.Layer+1)}
	vocab := golden.Words{}
	for i, t := range a.Tokens {
		tr.IDs = append(tr.IDs, i)
		vocab[i] = t
	}
	for _, w := range a.Patterns {
		tr.Attention[a.Layer] = append(tr.Attention[a.Layer], w[(T-1)*T:])
	}
	p, err := viz.AttentionHeads(tr, a.Layer, vocab)
	if err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(p, "testdata/attention_heads.png"); err != nil {
		log.Fatal(err)
	}
	_, err = viz.AttentionHeads(tr, a.Layer+1, vocab)
	fmt.Println(err)
	// Output:
	// viz: attention heads: no layer 4 in a 4-layer trace
}

func ExampleAttentionPatterns() {
	a := readAttention()
	f, err := viz.AttentionPatterns(a.Patterns, a.Tokens, a.Layer)
	if err != nil {
		log.Fatal(err)
	}
	if err := viz.Save(f, "testdata/attention_patterns.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Println(f)
	// Output:
	// <heat maps "layer 3: every head's attention pattern": 6 maps and a colour bar>
}
