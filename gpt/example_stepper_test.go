package gpt_test

import (
	"fmt"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
)

// Step into block 0's attention: run to the pattern, look at one weight, finish.
func ExampleModel_Stepper() {
	m, _ := gpt.New(gpt.Tiny)
	m.Init(1, true)
	s, _ := m.Stepper([]int{5, 17, 300, 42})
	fmt.Println(s.Len(), "ops; the first is", s.Peek())
	op := s.Next()
	fmt.Println(op.Name, op.Output.Shape, "←", op.Inputs[0].Name, op.Inputs[0].Shape)
	op, _ = s.RunTo("blocks.0.attn.hook_pattern")
	fmt.Println(op.Index, op.Label+":", op.Name, op.Output.Shape)
	fmt.Printf("head 0, query 1 puts %.2f on key 0 and %.2f on key 2 (the future)\n", op.Output.At(0, 0, 1, 0), op.Output.At(0, 0, 1, 2))
	logits := s.Run()
	fmt.Println(logits.Name, logits.Shape, s.Done())
	// Output:
	// 47 ops; the first is hook_embed
	// hook_embed [1 4 32] ← tokens [1 4]
	// 11 softmax: blocks.0.attn.hook_pattern [1 4 4 4]
	// head 0, query 1 puts 0.49 on key 0 and 0.00 on key 2 (the future)
	// logits [1 4 512] true
}

// A change to the current output reaches every later op: here the residual stream after
// block 0's attention, at the last position.
func ExampleStepper_Output() {
	m, _ := gpt.New(gpt.Tiny)
	m.Init(1, true)
	ids := []int{5, 17, 300, 42}
	plain, _ := m.Stepper(ids)
	before := plain.Run().At(0, 3, 0)

	s, _ := m.Stepper(ids)
	s.RunTo("blocks.0.hook_resid_mid")
	s.Output().Set(10, 0, 3, 0) // channel 0 of position 3
	after := s.Run().At(0, 3, 0)
	fmt.Println("logit 0 at position 3 changed:", before != after)
	// Output:
	// logit 0 at position 3 changed: true
}

// The ops of a forward by name: three for the embeddings, twenty per block, four after.
func ExampleStepper_Names() {
	m, _ := gpt.New(gpt.Tiny)
	s, _ := m.Stepper([]int{1, 2, 3})
	names := s.Names()
	fmt.Println(len(names), s.Len(), s.Index())
	fmt.Println(names[3:6])
	fmt.Println(names[9:13])
	fmt.Println(names[len(names)-4:])
	// Output:
	// 47 47 0
	// [blocks.0.ln1.hook_scale blocks.0.ln1.hook_normalized blocks.0.ln1.out]
	// [blocks.0.attn.scores blocks.0.attn.hook_attn_scores blocks.0.attn.hook_pattern blocks.0.attn.hook_z]
	// [ln_final.hook_scale ln_final.hook_normalized ln_final.out logits]
}

// RunTo takes a later block's hook_resid_pre as the previous block's hook_resid_post, and
// says so when an op is already behind.
func ExampleStepper_RunTo() {
	m, _ := gpt.New(gpt.Tiny)
	s, _ := m.Stepper([]int{1, 2, 3})
	op, _ := s.RunTo("blocks.1.hook_resid_pre")
	fmt.Println(op.Name, s.Peek())
	_, err := s.RunTo("blocks.0.attn.hook_q")
	fmt.Println(err)
	// Output:
	// blocks.0.hook_resid_post blocks.1.ln1.hook_scale
	// gpt: stepper: run to "blocks.0.attn.hook_q": already performed (op 6; the next is op 23, blocks.1.ln1.hook_scale)
}

// An op prints its output and inputs with their shapes, and what it computes.
func ExampleOp_String() {
	m, _ := gpt.New(gpt.Tiny)
	s, _ := m.Stepper([]int{1, 2, 3})
	op, _ := s.RunTo("blocks.0.attn.hook_z")
	fmt.Println(op)
	fmt.Println(s.Current() == op, s.Done(), s.Logits() == nil)
	// Output:
	// 12 blocks.0.attn.hook_z [1 3 4 8] ← blocks.0.attn.hook_pattern [1 4 3 3], blocks.0.attn.hook_v [1 3 4 8]: sums the values weighted by the pattern, for each head and query
	// true false true
}

// In a cell the Stepper shows the block diagram with the current op highlighted, beside
// the op and its output (Op.HTML): here each head's pattern.
func ExampleStepper_HTML() {
	m, _ := gpt.New(gpt.Tiny)
	s, _ := m.Stepper([]int{1, 2, 3})
	s.RunTo("blocks.0.attn.hook_pattern")
	h := s.HTML()
	fmt.Println(strings.Contains(h, `<rect x="74" y="152" width="246" height="18" rx="3" fill="#f4a261"`))
	fmt.Println(strings.Contains(h, "<div>head 3</div>"), strings.Contains(s.Current().HTML(), "<svg"))
	// Output:
	// true
	// true true
}
