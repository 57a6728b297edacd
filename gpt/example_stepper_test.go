package gpt_test

import (
	"fmt"

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
