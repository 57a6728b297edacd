package check_test

import (
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/gpt/check"
)

// studentLoop is a student's training loop as notebook 3 has it: the optimizer does not
// clip, the loop clips by hand. Its knobs are the mistakes.
type studentLoop struct {
	rateOfNext, updateFirst, noTargets, evalOnTrain, noClip bool
	evalEvery                                               int // 0: o.EvalEvery
}

func (s studentLoop) train(m *gpt.Model, train, val []int32, o gpt.TrainOptions) (losses, valLosses []float64) {
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	batches, err := gpt.NewLoader(train, o.Batch, o.SeqLen, o.Seed)
	must(err)
	opt := gpt.NewAdamW(m.Params)
	opt.WeightDecay = float32(o.WeightDecay)
	opt.ClipNorm = 0
	schedule := gpt.Schedule{MaxLR: o.LR, MinLR: o.MinLR, Warmup: o.Warmup, Decay: o.Steps}
	every := o.EvalEvery
	if s.evalEvery > 0 {
		every = s.evalEvery
	}
	held := val
	if s.evalOnTrain {
		held = train
	}
	update := func(step int) {
		lr := schedule.LR(step)
		if s.rateOfNext {
			lr = schedule.LR(step + 1)
		}
		_, err := opt.Update(m.Params, m.Grads, lr)
		must(err)
	}
	for step := 0; step < o.Steps; step++ {
		x, y := batches.Next()
		if s.noTargets {
			y = nil
		}
		out, err := m.Forward(x, y)
		must(err)
		if s.updateFirst {
			update(step)
		}
		must(m.Backward())
		if norm := gpt.GradNorm(m.Grads.Data); !s.noClip && norm > o.ClipNorm {
			scale := float32(o.ClipNorm / norm)
			for i := range m.Grads.Data {
				m.Grads.Data[i] *= scale
			}
		}
		if !s.updateFirst {
			update(step)
		}
		losses = append(losses, float64(out.Loss))
		if (step+1)%every == 0 {
			xs, ys, err := gpt.Windows(held, o.Batch, o.SeqLen, o.EvalBatches)
			must(err)
			total := 0.0
			for i := range xs {
				out, err := m.Forward(xs[i], ys[i])
				must(err)
				total += float64(out.Loss) / float64(len(xs))
			}
			valLosses = append(valLosses, total)
		}
	}
	return losses, valLosses
}

func TestTrainLoop(t *testing.T) {
	if v := check.TrainLoop(studentLoop{}.train); !v.OK || !strings.HasPrefix(v.String(), "right: your training loop matches the Trainer's to 1e-06") {
		t.Fatalf("a right loop: %s", v)
	}
	for _, c := range []struct {
		name string
		f    func(*gpt.Model, []int32, []int32, gpt.TrainOptions) ([]float64, []float64)
		says string
	}{
		{"blank", func(*gpt.Model, []int32, []int32, gpt.TrainOptions) ([]float64, []float64) { return nil, nil },
			"the Trainer takes 6 steps and measures the validation loss 3 times (after every 2 steps); you have 0 training losses and 0 validation losses."},
		{"rate of step+1", studentLoop{rateOfNext: true}.train, "It gives what a known mistake gives: the rate of step + 1"},
		{"update first", studentLoop{updateFirst: true}.train, "It gives what a known mistake gives: Update before Backward"},
		{"no targets", studentLoop{noTargets: true}.train, "It gives what a known mistake gives: a forward without targets"},
		{"eval on train", studentLoop{evalOnTrain: true}.train, "It gives what a known mistake gives: evaluating on the training split"},
		{"no clip", studentLoop{noClip: true}.train, "It gives what a known mistake gives: gradient clipping skipped"},
		{"eval every step", studentLoop{evalEvery: 1}.train, "you have 6 training losses and 6 validation losses"},
	} {
		v := check.TrainLoop(c.f)
		if v.OK || !strings.HasPrefix(v.String(), "not yet: ") || !strings.Contains(v.String(), c.says) {
			t.Errorf("%s: %s\nwant it to say %q", c.name, v, c.says)
		}
	}
}
