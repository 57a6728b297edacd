package interp_test

import (
	"fmt"
	"log"
	"sort"

	"github.com/gptnotes/gptnotes/interp"
)

// Which parts of the shipped model push "}" over "\t" after a one-statement function?
// The final stream is taken apart into the embeddings, every head, every attention bias
// and every MLP; through ln_f's scale each gets its share of the logit difference.
func ExampleDecompose() {
	m, tok := shipped()
	ids := tok.Encode("func main() {\n\tfmt.Println(\"hello\")\n")
	cs, err := interp.Decompose(m, ids, m.Config.Layers, -1)
	if err != nil {
		log.Fatal(err)
	}
	close, tab := tok.Encode("}")[0], tok.Encode("\t")[0]
	shares, rest, err := cs.Attribution(m, close, tab)
	if err != nil {
		log.Fatal(err)
	}
	sum := rest
	order := make([]int, len(shares))
	for i, s := range shares {
		sum += s
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return shares[order[i]] > shares[order[j]] })
	fmt.Printf("%d components; logit(\"}\") − logit(\"\\t\") = %.2f\n", len(shares), sum)
	fmt.Printf("pushes hardest for \"}\": %s, %.2f\n", cs.Labels[order[0]], shares[order[0]])
	fmt.Printf("pushes hardest for \"\\t\": %s, %.2f\n", cs.Labels[order[len(order)-1]], shares[order[len(order)-1]])
	// Output:
	// 82 components; logit("}") − logit("\t") = -2.22
	// pushes hardest for "}": L1H0, 0.83
	// pushes hardest for "\t": L0 mlp, -5.62
}
