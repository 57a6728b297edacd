package viz_test

import (
	"fmt"
	"log"
	"strconv"

	"github.com/gptnotes/gptnotes/viz"
	"github.com/gptnotes/gptnotes/viz/internal/golden"
)

// words is a Decoder over a made-up vocabulary, for the examples.
type words []string

func (w words) Decode(ids []int) string {
	s := ""
	for _, id := range ids {
		s += w[id]
	}
	return s
}

// The shipped model's next tokens after "func main() {\n\tfmt." (testdata/topn.json, go run
// ./viz/internal/goldendata topn).
func ExampleTopTokens() {
	var top golden.TopN
	if err := golden.Read("topn", &top); err != nil {
		log.Fatal(err)
	}
	cs := top.Candidates[:8]
	if err := viz.Save(viz.TopTokens(cs, top.Vocab, "next token after "+strconv.Quote(top.Prompt)), "testdata/topn.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q %.1f%%\n", top.Vocab.Decode([]int{cs[0].ID}), 100*cs[0].Prob)
	// Output:
	// "Errorf" 5.2%
}
