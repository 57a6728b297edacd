package gpt_test

import (
	"context"
	"fmt"

	"github.com/gptnotes/gptnotes/gpt"
)

// Training is one call per step: Step() draws a batch, runs forward, backward and AdamW,
// and reports the loss; Run takes the remaining steps with evaluation and checkpoints.
func ExampleTrainer() {
	cfg := gpt.Config{VocabSize: 16, BlockSize: 8, Layers: 1, Heads: 2, Channels: 16}
	m, _ := gpt.New(cfg)
	m.Init(1, true)
	// A stream that counts 0, 1, …, 15, 0, 1, …: the next token is always predictable.
	tokens := make([]int32, 2000)
	for i := range tokens {
		tokens[i] = int32(i % 16)
	}
	tr, err := gpt.NewTrainer(m, tokens[:1600], tokens[1600:], gpt.TrainOptions{Batch: 4, Steps: 100, LR: 1e-2})
	if err != nil {
		fmt.Println(err)
		return
	}
	first, _ := tr.Step()
	if err := tr.Run(context.Background()); err != nil {
		fmt.Println(err)
		return
	}
	val, _ := tr.Evaluate()
	fmt.Printf("step 1: loss %.1f (ln 16 = 2.8)\n", first.Loss)
	fmt.Printf("after %d steps: validation loss below 0.05: %v\n", tr.StepsDone(), val < 0.05)
	// Output:
	// step 1: loss 2.8 (ln 16 = 2.8)
	// after 100 steps: validation loss below 0.05: true
}
