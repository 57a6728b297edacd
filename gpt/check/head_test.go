package check_test

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/gpt/check"
)

// headOf cuts head h's (T, T) matrix out of an activation (1, NH, T, T).
func headOf(a *gpt.Activation, h int) [][]float32 {
	T := a.Shape[2]
	g := make([][]float32, T)
	for i := range g {
		g[i] = append([]float32(nil), a.Data[(h*T+i)*T:(h*T+i+1)*T]...)
	}
	return g
}

// Head passes the model's own tensors, and names the first difference, the shape and a bad
// head or name.
func TestHead(t *testing.T) {
	m, tok, err := gpt.Open(filepath.Join("..", "..", "testdata", gpt.ShippedModel))
	if err != nil {
		t.Skip(err)
	}
	s, err := m.Stepper(tok.Encode("func main() {\n\tfmt.Println(1)\n}"))
	if err != nil {
		t.Fatal(err)
	}
	masked, err := s.RunTo("blocks.1.attn.hook_attn_scores")
	if err != nil {
		t.Fatal(err)
	}
	scores := masked.Output
	right := headOf(scores, 2)
	if v := check.Head(right, scores, 2); !v.OK || v.MaxDiff != 0 {
		t.Errorf("the model's own masked scores (−Inf above the diagonal): %v", v)
	}
	wrong := headOf(scores, 2)
	wrong[3][1] += 0.5
	v := check.Head(wrong, scores, 2)
	if v.OK || !strings.Contains(v.Problem, "differs first at query 3, key 1") {
		t.Errorf("scores changed at query 3, key 1: %v", v)
	}
	unmasked := headOf(scores, 2)
	unmasked[0][1] = 0 // a score the mask should have made −Inf
	if v := check.Head(unmasked, scores, 2); v.OK || !strings.Contains(v.Problem, "query 0, key 1") {
		t.Errorf("a finite score above the diagonal: %v", v)
	}
	big := headOf(scores, 2) // masked with −1e9: the softmax gives the same 0 weights
	for i := range big {
		for j := i + 1; j < len(big[i]); j++ {
			big[i][j] = -1e9
		}
	}
	if v := check.Head(big, scores, 2); !v.OK {
		t.Errorf("masked with −1e9 instead of −Inf: %v", v)
	}
	big[0][1] = -50 // exp(−50 − the row's largest) is not 0: not masked
	if v := check.Head(big, scores, 2); v.OK || !strings.Contains(v.Problem, "query 0, key 1") {
		t.Errorf("masked with −50: %v", v)
	}
	if v := check.Head(right[:2], scores, 2); v.OK || !strings.Contains(v.Problem, "the shape is wrong") {
		t.Errorf("two rows: %v", v)
	}
	if v := check.Head(right, scores, 99); v.OK || !strings.Contains(v.Problem, fmt.Sprintf("heads are 0 … %d", scores.Shape[1]-1)) {
		t.Errorf("head 99: %v", v)
	}
	z, err := s.RunTo("blocks.1.attn.hook_z") // (1, T, NH, HS)
	if err != nil {
		t.Fatal(err)
	}
	T, NH, HS := z.Output.Shape[1], z.Output.Shape[2], z.Output.Shape[3]
	rows := make([][]float32, T)
	for p := range rows {
		rows[p] = append([]float32(nil), z.Output.Data[(p*NH+4)*HS:(p*NH+5)*HS]...)
	}
	if v := check.Head(rows, z.Output, 4); !v.OK || !strings.HasPrefix(v.String(), "right: head 4 of blocks.1.attn.hook_z") {
		t.Errorf("the model's own z: %v", v)
	}
	rows[0][0] = float32(math.NaN())
	if v := check.Head(rows, z.Output, 4); v.OK {
		t.Errorf("a NaN in z: %v", v)
	}
	embed := &gpt.Activation{Name: "hook_embed", Shape: []int{1, 2, 3, 4}, Data: make([]float32, 24)}
	if v := check.Head(nil, embed, 0); v.OK || !strings.Contains(v.Problem, "not one head's attention tensor") {
		t.Errorf("hook_embed: %v", v)
	}
}

// A pattern computed in a cell, checked against the model's: here the model's own, so right.
func ExampleHead() {
	m, tok, err := gpt.Open(filepath.Join("..", "..", "testdata", gpt.ShippedModel))
	if err != nil {
		panic(err)
	}
	s, _ := m.Stepper(tok.Encode("x := 1"))
	op, _ := s.RunTo("blocks.0.attn.hook_pattern")
	fmt.Println(check.Head(headOf(op.Output, 0), op.Output, 0))
	mine := headOf(op.Output, 0)
	mine[1][0] = 0.5
	fmt.Println(check.Head(mine, op.Output, 0).Problem)
	// Output:
	// right: head 0 of blocks.0.attn.hook_pattern matches the model's to 1e-05 on this cell's 3 positions (largest difference 0, at query 0, key 0).
	// differs first at query 1, key 0: yours 0.5, the model's 0.5148; the largest difference is 0.0148, at query 1, key 0.
}
