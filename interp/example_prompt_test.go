package interp_test

import (
	"fmt"
	"log"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/interp"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// The shipped model, asked to close a Go function after one statement: it would rather
// write another statement (a tab) first.
func ExampleTestPrompt() {
	m, tok := shipped()
	pt, err := interp.TestPrompt(m, tok, "func main() {\n\tfmt.Println(\"hello\")\n", "}", 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pt)
	// Output:
	// prompt "func main() {\n\tfmt.Println(\"hello\")\n", answer "}"
	// answer token "}": rank 2, logit 10.14, probability 9.47%
	//   top 1: "\t" logit 12.36, 87.17%
	//   top 2: "}" logit 10.14, 9.47%
	//   top 3: ")" logit 8.86, 2.62%
}

// shipped opens the model gptnotes ships, testdata/gopher.safetensors, with its tokenizer.
func shipped() (*gpt.Model, *tokenizer.Tokenizer) {
	path, err := gpt.ShippedModelPath()
	if err != nil {
		log.Fatal(err)
	}
	m, tok, err := gpt.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	return m, tok
}
