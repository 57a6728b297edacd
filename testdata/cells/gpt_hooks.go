// Hooks written in a cell are interpreted Go that the compiled forward calls: the hook sees
// each activation's name and shape, its change reaches the logits, its panic is an error
// naming the hook; the cache and the ablation map run the same way.
import (
	"fmt"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)
path, err := gpt.ShippedModelPath()
m, tok, err := gpt.Open(path)
ids := tok.Encode("\tif err != nil {\n\t\treturn")
len(ids)
// ---
var seen []string
silence := gpt.Hook{Name: "blocks.*.attn.hook_z", Fn: func(a *gpt.Activation) {
	seen = append(seen, fmt.Sprint(a.Name, " ", a.Shape))
	if a.Name == "blocks.0.attn.hook_z" {
		for i := range a.Data {
			a.Data[i] = 0
		}
	}
}}
plain, _ := m.RunWithHooks(ids)
out, err := m.RunWithHooks(ids, silence)
fmt.Println(err, len(seen), seen[0])
last := len(ids) - 1
fmt.Println("logits changed:", plain.Row(0, last)[0] != out.Row(0, last)[0])
// ---
_, err = m.RunWithHooks(ids, gpt.Hook{Name: "blocks.0.hook_resid_mid", Fn: func(a *gpt.Activation) {
	a.Set(1, 0, 99, 0)
}})
fmt.Println(err)
// ---
_, cache, err := m.RunWithCache(ids, "blocks.1.attn.hook_pattern", "blocks.*.hook_resid_post")
cache.Names()
// ---
cache.MustGet("blocks.1.attn.hook_pattern").Shape
// ---
lm, err := m.HeadAblation(ids, gpt.ZeroAblation, -1)
p, err := viz.LayerMap(lm)
fmt.Println(err, p.Title.Text)
// ---
patched, err := m.ActivationPatching(gpt.Patching{
	Clean: tok.Encode("\tfor i := 0; i < n;"), Corrupted: tok.Encode("\tfor j := 0; j < n;"),
	Right: tok.Encode(" i")[0], Wrong: tok.Encode(" j")[0], Decoder: tok,
})
p, err = viz.LayerMap(patched)
fmt.Println(err, p.X.Label.Text, len(patched.Values), len(patched.Values[0]))
// Output:
// Out: 9
// <nil> 8 blocks.0.attn.hook_z [1 9 8 32]
// logits changed: true
// gpt: run with hooks: hook "blocks.0.hook_resid_mid": panic: gpt: blocks.0.hook_resid_mid: index 99 of dimension 1 is outside [0, 9) (shape [1 9 256])
// Out: [blocks.0.hook_resid_post blocks.1.attn.hook_pattern blocks.1.hook_resid_post blocks.2.hook_resid_post blocks.3.hook_resid_post blocks.4.hook_resid_post blocks.5.hook_resid_post blocks.6.hook_resid_post blocks.7.hook_resid_post]
// Out: [1 8 9 9]
// <nil> zero-ablating each head: change in the loss (clean 0.7843)
// <nil> position 8 10
