// A forward stepped op by op in a cell: the Stepper's ops, a change to the current output
// reaching the logits, and its HTML.
import (
	"fmt"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
)

m, _ := gpt.New(gpt.Tiny)
m.Init(1, true)
s, err := m.Stepper([]int{5, 17, 300, 42})
fmt.Println(err, s.Len(), s.Peek())
// ---
op := s.Next()
fmt.Println(op.Name, op.Output.Shape, op.What)
// ---
op, err = s.RunTo("blocks.0.attn.hook_pattern")
fmt.Println(op.Index, op.Label, op.Output.Shape, strings.Contains(s.HTML(), "head 3"))
// ---
plain, _ := m.Stepper([]int{5, 17, 300, 42})
before := plain.Run().At(0, 3, 7)
s.Output().Set(1, 0, 2, 3, 0) // head 2, query 3 looks only at key 0
s.Output().Set(0, 0, 2, 3, 1)
s.Output().Set(0, 0, 2, 3, 2)
s.Output().Set(0, 0, 2, 3, 3)
after := s.Run().At(0, 3, 7)
fmt.Println(s.Done(), before != after)
// Output:
// <nil> 47 hook_embed
// hook_embed [1 4 32] looks up each token's row of wte
// 11 softmax [1 4 4 4] true
// true true
