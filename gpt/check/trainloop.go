package check

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/gptnotes/gptnotes/gpt"
)

// TrainLoop checks a student's training loop against the library's Trainer, loss for loss.
// f(m, train, val, o) trains m for o.Steps steps on (o.Batch, o.SeqLen) batches drawn from
// train by gpt.NewLoader(train, o.Batch, o.SeqLen, o.Seed): each step a forward with
// targets, Backward, the gradient scaled down to norm o.ClipNorm when it is longer, and one
// AdamW update (β (0.9, 0.95), ε 1e-8, decay o.WeightDecay on the matrices) at the rate
// gpt.Schedule{MaxLR: o.LR, MinLR: o.MinLR, Warmup: o.Warmup, Decay: o.Steps} gives for the
// step, counted from 0. After every o.EvalEvery-th step it measures the mean loss over the
// first o.EvalBatches batches of gpt.Windows(val, o.Batch, o.SeqLen, o.EvalBatches). It
// returns every step's training loss and the validation losses, which must equal the
// Trainer's to 1e-6 for the same seed. The model is a fresh one-block model on the shipped
// tokenizer's vocabulary; it trains on Go's unicode/utf8/utf8.go and holds out
// strings/builder.go. Its Grads are allocated (zero) before the first step.
//
//	v := check.TrainLoop(func(m *gpt.Model, train, val []int32, o gpt.TrainOptions) (losses, valLosses []float64) { … })
func TrainLoop(f func(m *gpt.Model, train, val []int32, o gpt.TrainOptions) (losses, valLosses []float64)) *Verdict {
	const op = "your training loop"
	c, want, wrong, err := loopRuns()
	if err != nil {
		return failed(op, err)
	}
	v := &Verdict{Op: op, Ref: "the Trainer's", Tol: 1e-6, Case: c.String()}
	m, err := c.model()
	if err != nil {
		return failed(op, err)
	}
	var got loopRun
	if msg := call(func() { got.losses, got.val = f(m, c.clone(c.train), c.clone(c.val), c.opts) }); msg != "" {
		v.Problem = "your function panicked: " + msg + "."
		if strings.Contains(msg, gpt.ErrNoForward.Error()) {
			v.Mistake = loopNoTargets
		}
		return v
	}
	if v.Problem = c.differ(got, want); v.Problem == "" {
		v.OK = true
		v.MaxDiff = maxDiff(got, want)
		v.Where = fmt.Sprintf("%d training and %d validation losses", len(want.losses), len(want.val))
		return v
	}
	if len(got.losses) > 0 && allNaN(got.losses) {
		v.Mistake = loopNoTargets
		return v
	}
	for i, w := range loopWrongWays {
		if c.differ(got, wrong[i]) == "" {
			v.Mistake = w.says
			return v
		}
	}
	return v
}

// loops holds the case, the Trainer's losses and each wrong way's, computed once: they are
// the same for every call.
var loops struct {
	once  sync.Once
	c     *loopCase
	want  loopRun
	wrong []loopRun
	err   error
}

func loopRuns() (*loopCase, loopRun, []loopRun, error) {
	loops.once.Do(func() {
		if loops.c, loops.err = newLoopCase(); loops.err != nil {
			return
		}
		if loops.want, loops.err = loops.c.trainer(); loops.err != nil {
			return
		}
		for _, w := range loopWrongWays {
			r, err := loops.c.run(w.way)
			if err != nil {
				loops.err = fmt.Errorf("check: the loop with %s: %w", w.says[:strings.Index(w.says, ":")], err)
				return
			}
			loops.wrong = append(loops.wrong, r)
		}
	})
	return loops.c, loops.want, loops.wrong, loops.err
}

// loopNoTargets is what a forward without targets is told.
const loopNoTargets = "a forward without targets: m.Forward(x, nil) scores only the last position and has no loss, " +
	"so Backward has nothing to differentiate (gpt.ErrNoForward); pass the targets y."

// loopWay is one way, right or wrong, to write the loop; the zero value is the Trainer's.
type loopWay struct {
	rateOfNext  bool // the rate of step + 1
	updateFirst bool // Update before Backward: the previous step's gradients
	evalOnTrain bool // the validation loss measured on the training split
	noClip      bool // the gradient never clipped
}

// loopWrongWays are the mistakes a loop is checked for, with what each says.
var loopWrongWays = []struct {
	says string
	way  loopWay
}{
	{"the rate of step + 1: the schedule counts steps from 0, as the Trainer does, so the first step runs at " +
		"schedule.LR(0); yours runs each step at the next step's rate.", loopWay{rateOfNext: true}},
	{"Update before Backward: the optimizer stepped on the gradients left by the step before (zero at the first " +
		"step), since Backward had not yet filled them for this batch.", loopWay{updateFirst: true}},
	{"evaluating on the training split: the validation loss must come from the held-out tokens (val), which the " +
		"model never trains on.", loopWay{evalOnTrain: true}},
	{"gradient clipping skipped: when the gradient's norm is above o.ClipNorm the Trainer scales the gradient " +
		"down to that norm before the update (gpt.GradNorm gives the norm).", loopWay{noClip: true}},
}

// loopCase is the model, the data and the options a loop is checked with.
type loopCase struct {
	cfg        gpt.Config
	seed       uint64 // of the model's initial weights
	train, val []int32
	opts       gpt.TrainOptions
}

// loopRun is what a loop reports: each step's training loss, and the validation losses.
type loopRun struct {
	losses, val []float64
}

func newLoopCase() (*loopCase, error) {
	_, tok, err := shipped()
	if err != nil {
		return nil, fmt.Errorf("check: the training loop's case needs the shipped tokenizer: %w", err)
	}
	read := func(rel string) ([]int32, error) {
		b, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", filepath.FromSlash(rel)))
		if err != nil {
			return nil, fmt.Errorf("check: the training loop's case needs Go's source: %w", err)
		}
		var ids []int32
		for _, id := range tok.Encode(string(b)) {
			ids = append(ids, int32(id))
		}
		return ids, nil
	}
	train, err := read("unicode/utf8/utf8.go")
	if err != nil {
		return nil, err
	}
	val, err := read("strings/builder.go")
	if err != nil {
		return nil, err
	}
	return &loopCase{
		cfg:   gpt.Config{VocabSize: tok.VocabSize(), BlockSize: 32, Layers: 1, Heads: 2, Channels: 32},
		seed:  5,
		train: train, val: val,
		// A rate high enough, and a clip low enough, that each mistake changes the losses.
		opts: gpt.TrainOptions{Batch: 4, SeqLen: 32, Steps: 6, LR: 1e-2, MinLR: 1e-3, Warmup: 2,
			WeightDecay: 0.1, ClipNorm: 0.25, Seed: 11, EvalEvery: 2, EvalBatches: 2},
	}, nil
}

// String names the case: the model, the data and the options that matter most.
func (c *loopCase) String() string {
	o := c.opts
	return fmt.Sprintf("%d steps of a fresh %d-block model on Go's unicode/utf8/utf8.go, strings/builder.go held out "+
		"(batches of %d × %d, LR %g, warm-up %d, clip %g, evaluated every %d steps)",
		o.Steps, c.cfg.Layers, o.Batch, o.SeqLen, o.LR, o.Warmup, o.ClipNorm, o.EvalEvery)
}

func (c *loopCase) clone(ids []int32) []int32 { return append([]int32(nil), ids...) }

// model is a fresh model with the case's weights and zero gradients.
func (c *loopCase) model() (*gpt.Model, error) {
	m, err := gpt.New(c.cfg)
	if err != nil {
		return nil, err
	}
	m.Init(c.seed, true)
	if m.Grads, err = gpt.NewParams(c.cfg); err != nil {
		return nil, err
	}
	return m, nil
}

// trainer runs the library's Trainer on the case.
func (c *loopCase) trainer() (loopRun, error) {
	m, err := c.model()
	if err != nil {
		return loopRun{}, err
	}
	t, err := gpt.NewTrainer(m, c.train, c.val, c.opts)
	if err != nil {
		return loopRun{}, err
	}
	if err := t.Run(context.Background()); err != nil {
		return loopRun{}, err
	}
	var r loopRun
	_, r.losses, _, r.val = t.Losses()
	return r, nil
}

// run is the loop written out, the right way or one of the wrong ones.
func (c *loopCase) run(w loopWay) (loopRun, error) {
	m, err := c.model()
	if err != nil {
		return loopRun{}, err
	}
	o := c.opts
	batches, err := gpt.NewLoader(c.train, o.Batch, o.SeqLen, o.Seed)
	if err != nil {
		return loopRun{}, err
	}
	opt := gpt.NewAdamW(m.Params)
	opt.WeightDecay = float32(o.WeightDecay)
	opt.ClipNorm = o.ClipNorm
	if w.noClip {
		opt.ClipNorm = 0
	}
	schedule := gpt.Schedule{MaxLR: o.LR, MinLR: o.MinLR, Warmup: o.Warmup, Decay: o.Steps}
	evalOn := c.val
	if w.evalOnTrain {
		evalOn = c.train
	}
	var r loopRun
	for step := 0; step < o.Steps; step++ {
		x, y := batches.Next()
		out, err := m.Forward(x, y)
		if err != nil {
			return r, err
		}
		lr := schedule.LR(step)
		if w.rateOfNext {
			lr = schedule.LR(step + 1)
		}
		if w.updateFirst {
			if _, err := opt.Update(m.Params, m.Grads, lr); err != nil {
				return r, err
			}
		}
		if err := m.Backward(); err != nil {
			return r, err
		}
		if !w.updateFirst {
			if _, err := opt.Update(m.Params, m.Grads, lr); err != nil {
				return r, err
			}
		}
		r.losses = append(r.losses, float64(out.Loss))
		if (step+1)%o.EvalEvery == 0 {
			xs, ys, err := gpt.Windows(evalOn, o.Batch, o.SeqLen, o.EvalBatches)
			if err != nil {
				return r, err
			}
			total := 0.0
			for i := range xs {
				out, err := m.Forward(xs[i], ys[i])
				if err != nil {
					return r, err
				}
				total += float64(out.Loss) / float64(len(xs))
			}
			r.val = append(r.val, total)
		}
	}
	return r, nil
}

// differ says where got first differs from want, or "" if every loss is within 1e-6.
func (c *loopCase) differ(got, want loopRun) string {
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }
	if len(got.losses) != len(want.losses) || len(got.val) != len(want.val) {
		return fmt.Sprintf("the Trainer takes %d steps and measures the validation loss %d times (after every %d steps); "+
			"you have %d training losses and %d validation losses.", len(want.losses), len(want.val), c.opts.EvalEvery, len(got.losses), len(got.val))
	}
	for s := range want.losses {
		if !near(got.losses[s], want.losses[s]) {
			return fmt.Sprintf("step %d's training loss is %.6f; yours is %.6f%s.", s+1, want.losses[s], got.losses[s], agree(s))
		}
		if (s+1)%c.opts.EvalEvery == 0 {
			k := (s+1)/c.opts.EvalEvery - 1
			if !near(got.val[k], want.val[k]) {
				return fmt.Sprintf("the validation loss after step %d is %.6f; yours is %.6f (the training losses up to it agree).",
					s+1, want.val[k], got.val[k])
			}
		}
	}
	return ""
}

// agree says that the steps before step s (from 0) gave the same losses, when there are some.
func agree(s int) string {
	switch s {
	case 0:
		return ""
	case 1:
		return " (step 1's agrees)"
	}
	return fmt.Sprintf(" (steps 1 to %d agree)", s)
}

func maxDiff(got, want loopRun) float64 {
	d := 0.0
	for i := range want.losses {
		d = math.Max(d, math.Abs(got.losses[i]-want.losses[i]))
	}
	for i := range want.val {
		d = math.Max(d, math.Abs(got.val[i]-want.val[i]))
	}
	return d
}

func allNaN(xs []float64) bool {
	for _, x := range xs {
		if !math.IsNaN(x) {
			return false
		}
	}
	return true
}
