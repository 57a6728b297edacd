// Package interp in a cell: head scores drawn by viz, a steering hook written in the cell, the
// composition scores and TestPrompt.
import (
	"fmt"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/interp"
	"github.com/gptnotes/gptnotes/viz"
)
path, err := gpt.ShippedModelPath()
m, tok, err := gpt.Open(path)
seqs := interp.RepeatedTokens(m.Config.VocabSize, interp.GateOptions{Seqs: 2, N: 10, BOS: tok.EndTokenID(), Seed: 1}, 2)
maps, err := interp.ScoreHeadsAll(m, seqs, []interp.Detector{interp.PreviousToken, interp.Induction}, interp.ScoreOptions{})
fig, err := viz.HeadScores(maps...)
fmt.Println(err, len(maps), len(maps[1].Values), fig.Title)
// ---
hs, err := interp.HeadsOf(m)
k, err := hs.Composition("K")
fmt.Println(err, k.At(1, 0, 0, 0), k.At(0, 0, 1, 0) > 0)
// ---
pt, err := interp.TestPrompt(m, tok, "func main() {\n\tfmt.Println(\"hello\")\n", "}", 1)
fmt.Println(err, pt.Tokens[0].Rank)
// ---
v, err := interp.SteeringVector(m, tok.Encode("// error"), tok.Encode("// loop"), 3)
s, err := interp.Steer(m, tok, "func main() {\n", interp.Steering{Layer: 3, Vector: v, Coeff: 0.5}, 16)
fmt.Println(err, s.Differs())
// Output:
// <nil> 2 8 head scores
// <nil> 0 true
// <nil> 2
// <nil> true
