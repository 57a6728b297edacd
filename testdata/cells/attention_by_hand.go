// One head's attention computed in a cell from a cache of the shipped model, checked against
// the model's own tensors with check.Head, and every head's pattern drawn by
// viz.AttentionPatterns (a value that shows itself as a PNG).
import (
	"fmt"
	"math"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/gpt/check"
	"github.com/gptnotes/gptnotes/viz"
)

model, tok, _, err := gpt.Pretrained()
if err != nil {
	panic(err)
}
ids := tok.Encode("x := 1\ny := x")
_, attn, err := model.RunWithCache(ids, "blocks.1.attn.*")
if err != nil {
	panic(err)
}
q, k := attn.MustGet("blocks.1.attn.hook_q"), attn.MustGet("blocks.1.attn.hook_k")
T, HS := q.Shape[1], q.Shape[3]
scores := make([][]float32, T)
for i := range scores {
	scores[i] = make([]float32, T)
	for j := range scores[i] {
		if j > i {
			scores[i][j] = float32(math.Inf(-1))
			continue
		}
		for c := 0; c < HS; c++ {
			scores[i][j] += q.At(0, i, 2, c) * k.At(0, j, 2, c)
		}
		scores[i][j] /= float32(math.Sqrt(float64(HS)))
	}
}
v := check.Head(scores, attn.MustGet("blocks.1.attn.hook_attn_scores"), 2)
fmt.Println(v.OK, v.MaxDiff < 1e-5)
scores[1][0] = 0
fmt.Println(check.Head(scores, attn.MustGet("blocks.1.attn.hook_attn_scores"), 2).OK)
// ---
pat := attn.MustGet("blocks.1.attn.hook_pattern")
var heads [][]float32
for h := 0; h < pat.Shape[1]; h++ {
	heads = append(heads, pat.Data[h*T*T:(h+1)*T*T])
}
fig, err := viz.AttentionPatterns(heads, nil, 1)
fmt.Println(err, len(fig.PNG()) > 10000)
fig
// Output:
// true true
// false
// <nil> true
// Out: <heat maps "layer 1: every head's attention pattern": 8 maps and a colour bar>
