package gpt

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// This file is the training loop, step by step: a Trainer owns the model, the optimizer,
// the learning-rate schedule and a loader, and each Step() is one batch of forward,
// backward and AdamW. A checkpoint holds everything a resumed run needs to continue
// exactly: the parameters, the optimizer's moments and step, and the loader's position.

// TrainOptions are the settings of a run. Zero fields take the default in the comment.
type TrainOptions struct {
	Batch           int     // B sequences per step; default 8
	SeqLen          int     // T positions per sequence; default the model's block size
	Steps           int     // steps of the whole run; default 1000
	LR              float64 // peak learning rate; default 6e-4
	MinLR           float64 // floor of the cosine decay; default LR/10
	Warmup          int     // warmup steps; default Steps/20
	WeightDecay     float64 // AdamW decay of the matrices; default 0.1 (negative: none)
	ClipNorm        float64 // gradient-norm clip; default 1.0 (negative: none)
	Seed            uint64  // seeds the batches
	EvalEvery       int     // Run computes the validation loss every this many steps (0: at the end only)
	EvalBatches     int     // validation batches per Evaluate; default 8
	CheckpointEvery int     // Run saves a checkpoint every this many steps (0: at the end only)
	CheckpointPath  string  // where Run saves checkpoints; "" → none
	// Repeated is the fraction of each batch's sequences that are random tokens repeated
	// twice instead of text (Loader.Repeated), e.g. 0.25 to grow induction heads; default 0.
	Repeated float64
}

func (o TrainOptions) withDefaults(cfg Config) TrainOptions {
	def := func(x *int, v int) {
		if *x == 0 {
			*x = v
		}
	}
	def(&o.Batch, 8)
	def(&o.SeqLen, cfg.BlockSize)
	def(&o.Steps, 1000)
	def(&o.Warmup, max(1, o.Steps/20))
	def(&o.EvalBatches, 8)
	if o.LR == 0 {
		o.LR = 6e-4
	}
	if o.MinLR == 0 {
		o.MinLR = o.LR / 10
	}
	if o.WeightDecay == 0 {
		o.WeightDecay = 0.1
	}
	if o.ClipNorm == 0 {
		o.ClipNorm = 1
	}
	return o
}

// StepResult is what one training step reports.
type StepResult struct {
	Step         int           // steps done, counting this one (1 for the first)
	Steps        int           // steps of the whole run
	Loss         float64       // training loss of this step's batch
	ValLoss      float64       // validation loss measured after this step; NaN if not measured
	LR           float64       // learning rate used
	GradNorm     float64       // gradient norm before clipping
	Tokens       int           // B·T tokens in the batch
	TokensPerSec float64       // of this step
	Took         time.Duration // this step's wall time
	Left         time.Duration // estimated time for the remaining steps
}

func (r StepResult) String() string {
	s := fmt.Sprintf("step %d/%d: loss %.4f", r.Step, r.Steps, r.Loss)
	if !math.IsNaN(r.ValLoss) {
		s += fmt.Sprintf(", val %.4f", r.ValLoss)
	}
	return s + fmt.Sprintf(", lr %.2e, grad norm %.3f, %.0f tok/s, %s left",
		r.LR, r.GradNorm, r.TokensPerSec, r.Left.Round(time.Second))
}

// ProgressBar renders r as one line of a terminal progress bar, width characters of bar:
//
//	[=========>          ] 480/1000 loss 2.3141 val 2.4012 | 5,210 tok/s | 6m12s left
func (r StepResult) ProgressBar(width int) string {
	done := width * r.Step / max(r.Steps, 1)
	bar := strings.Repeat("=", done)
	if done < width {
		bar += ">" + strings.Repeat(" ", width-done-1)
	}
	s := fmt.Sprintf("[%s] %d/%d loss %.4f", bar, r.Step, r.Steps, r.Loss)
	if !math.IsNaN(r.ValLoss) {
		s += fmt.Sprintf(" val %.4f", r.ValLoss)
	}
	return s + fmt.Sprintf(" | %s tok/s | %s left", Commas(int(r.TokensPerSec)), r.Left.Round(time.Second))
}

// Trainer trains a model on a token stream, one Step at a time.
type Trainer struct {
	Model    *Model
	Options  TrainOptions
	Schedule Schedule
	Opt      *AdamW
	Train    *Loader          // random batches of the training split
	Val      []int32          // the validation split
	History  []StepResult     // every step so far, including those before a resume
	OnStep   func(StepResult) // called by Run after every step, e.g. to redraw a loss plot
	Timing   Timing           // where this process's time went

	step    int           // steps done
	timed   int           // steps taken by this process
	elapsed time.Duration // their wall time, for the time-left estimate
	valX    [][][]int     // validation batches, cut once
	valY    [][][]int
}

// Timing is where a run's wall time went, summed over the steps this process took: the
// parts of Step, then what Run adds between steps.
type Timing struct {
	Batches, Forward, Backward, Update time.Duration // Step: loader, model, gradients, AdamW
	Eval, Checkpoint                   time.Duration // Run: validation losses, checkpoints
}

// Total is the sum of the parts.
func (t Timing) Total() time.Duration {
	return t.Batches + t.Forward + t.Backward + t.Update + t.Eval + t.Checkpoint
}

// String lists the parts with their shares of the total, e.g.
//
//	forward 31.2s (33%), backward 58.0s (62%), adamw 2.1s (2%), batches 0.0s (0%), evaluation 1.9s (2%), checkpoints 0.6s (1%)
func (t Timing) String() string {
	total := max(t.Total(), 1)
	var parts []string
	for _, p := range []struct {
		name string
		d    time.Duration
	}{{"forward", t.Forward}, {"backward", t.Backward}, {"adamw", t.Update}, {"batches", t.Batches}, {"evaluation", t.Eval}, {"checkpoints", t.Checkpoint}} {
		parts = append(parts, fmt.Sprintf("%s %.1fs (%.0f%%)", p.name, p.d.Seconds(), 100*float64(p.d)/float64(total)))
	}
	return strings.Join(parts, ", ")
}

// NewTrainer prepares to train m (fp32, initialised or loaded) on the train tokens,
// measuring the validation loss on val.
func NewTrainer(m *Model, train, val []int32, opts TrainOptions) (*Trainer, error) {
	if m.Params == nil || m.Precision != FP32 {
		return nil, fmt.Errorf("gpt: train: a %v model cannot be trained; train in FP32", m.Precision)
	}
	opts = opts.withDefaults(m.Config)
	if opts.SeqLen > m.Config.BlockSize {
		return nil, fmt.Errorf("gpt: train: sequence length %d is longer than the block size %d", opts.SeqLen, m.Config.BlockSize)
	}
	for _, split := range []struct {
		name   string
		tokens []int32
	}{{"training", train}, {"validation", val}} {
		if len(split.tokens) < opts.SeqLen+1 {
			return nil, fmt.Errorf("gpt: train: the %s split has %d tokens, fewer than block size %d + 1; use a shorter block or more data",
				split.name, len(split.tokens), opts.SeqLen)
		}
		for i, id := range split.tokens {
			if id < 0 || int(id) >= m.Config.VocabSize {
				return nil, fmt.Errorf("gpt: train: %s token %d is id %d, outside the model's vocabulary of %d", split.name, i, id, m.Config.VocabSize)
			}
		}
	}
	loader, err := NewLoader(train, opts.Batch, opts.SeqLen, opts.Seed)
	if err != nil {
		return nil, err
	}
	if opts.Repeated < 0 || opts.Repeated > 1 {
		return nil, fmt.Errorf("gpt: train: repeated fraction %g, want 0 … 1", opts.Repeated)
	}
	loader.Repeated, loader.Vocab = int(math.Round(opts.Repeated*float64(opts.Batch))), m.Config.VocabSize
	opt := NewAdamW(m.Params)
	opt.WeightDecay = float32(max(opts.WeightDecay, 0))
	opt.ClipNorm = max(opts.ClipNorm, 0)
	return &Trainer{
		Model:    m,
		Options:  opts,
		Schedule: Schedule{MaxLR: opts.LR, MinLR: opts.MinLR, Warmup: opts.Warmup, Decay: opts.Steps},
		Opt:      opt,
		Train:    loader,
		Val:      val,
	}, nil
}

// StepsDone is the number of steps taken, counting those before a resume.
func (t *Trainer) StepsDone() int { return t.step }

// Step trains on one batch: forward, backward, AdamW at the scheduled learning rate. A NaN
// or infinite loss or gradient stops with an error naming the step and the largest
// gradient, and leaves the parameters as they were.
func (t *Trainer) Step() (StepResult, error) {
	start := time.Now()
	m := t.Model
	x, y := t.Train.Next()
	t0 := time.Now()
	t.Timing.Batches += t0.Sub(start)
	out, err := m.Forward(x, y)
	if err != nil {
		return StepResult{}, fmt.Errorf("gpt: train: step %d: %w", t.step+1, err)
	}
	t1 := time.Now()
	t.Timing.Forward += t1.Sub(t0)
	if err := m.Backward(); err != nil {
		return StepResult{}, fmt.Errorf("gpt: train: step %d: %w", t.step+1, err)
	}
	t2 := time.Now()
	t.Timing.Backward += t2.Sub(t1)
	loss := float64(out.Loss)
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return StepResult{}, fmt.Errorf("gpt: train: step %d: loss is %v; %s", t.step+1, loss, largestGradient(m.Grads))
	}
	lr := t.Schedule.LR(t.step)
	norm, err := t.Opt.Update(m.Params, m.Grads, lr)
	if err != nil {
		return StepResult{}, fmt.Errorf("gpt: train: step %d: loss %.4f but gradient norm %v; %s", t.step+1, loss, norm, largestGradient(m.Grads))
	}
	t.Timing.Update += time.Since(t2)
	t.step++
	took := time.Since(start)
	t.elapsed += took
	tokens := len(x) * len(x[0])
	r := StepResult{
		Step: t.step, Steps: t.Options.Steps, Loss: loss, ValLoss: math.NaN(), LR: lr, GradNorm: norm,
		Tokens: tokens, TokensPerSec: float64(tokens) / took.Seconds(), Took: took,
	}
	t.timed++
	r.Left = time.Duration(float64(t.elapsed) / float64(t.timed) * float64(max(0, t.Options.Steps-t.step)))
	t.History = append(t.History, r)
	return r, nil
}

// largestGradient names the entry of g with the largest magnitude, a NaN or infinity
// first, and counts the entries that are not finite.
func largestGradient(g *Params) string {
	if g == nil {
		return "no gradients"
	}
	name, at, val, bad := "", 0, float32(0), 0
	for _, t := range g.Tensors {
		for i, x := range t.Data {
			finite := !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0)
			switch {
			case !finite:
				if bad == 0 {
					name, at, val = t.Name, i, x
				}
				bad++
			case bad == 0 && (name == "" || abs32(x) > abs32(val)):
				name, at, val = t.Name, i, x
			}
		}
	}
	s := fmt.Sprintf("largest gradient %s[%d] = %v", name, at, val)
	if bad > 0 {
		s += fmt.Sprintf(" (%d of %d gradients are NaN or infinite)", bad, len(g.Data))
	}
	return s
}

// Evaluate returns the mean loss over the first EvalBatches (B, T) batches of the
// validation split (the same batches every time).
func (t *Trainer) Evaluate() (float64, error) {
	if t.valX == nil {
		x, y, err := Windows(t.Val, t.Options.Batch, t.Options.SeqLen, t.Options.EvalBatches)
		if err != nil {
			return 0, fmt.Errorf("gpt: evaluate: %w", err)
		}
		// Keep full batches only (a partial one would make the model reallocate its
		// training buffers), unless the split holds less than one.
		if n := len(x); n > 1 && len(x[n-1]) < t.Options.Batch {
			x, y = x[:n-1], y[:n-1]
		}
		t.valX, t.valY = x, y
	}
	var total float64
	var count int
	for i := range t.valX {
		out, err := t.Model.Forward(t.valX[i], t.valY[i])
		if err != nil {
			return 0, fmt.Errorf("gpt: evaluate: %w", err)
		}
		n := len(t.valX[i]) * t.Options.SeqLen
		total += float64(out.Loss) * float64(n)
		count += n
	}
	return total / float64(count), nil
}

// Run takes the remaining steps, measuring the validation loss every EvalEvery steps and
// at the end, saving a checkpoint every CheckpointEvery steps and at the end (when
// CheckpointPath is set), and calling OnStep after each step. It stops early, after
// saving a checkpoint, when ctx is cancelled.
func (t *Trainer) Run(ctx context.Context) error {
	o := t.Options
	for t.step < o.Steps {
		if err := ctx.Err(); err != nil {
			if o.CheckpointPath != "" {
				if serr := t.SaveCheckpoint(o.CheckpointPath); serr != nil {
					return errors.Join(err, serr)
				}
			}
			return err
		}
		r, err := t.Step()
		if err != nil {
			return err
		}
		if (o.EvalEvery > 0 && t.step%o.EvalEvery == 0) || t.step == o.Steps {
			start := time.Now()
			if r.ValLoss, err = t.Evaluate(); err != nil {
				return err
			}
			t.History[len(t.History)-1].ValLoss = r.ValLoss
			t.Timing.Eval += time.Since(start)
			t.elapsed += time.Since(start) // the time-left estimate counts evaluations too
		}
		if o.CheckpointPath != "" && ((o.CheckpointEvery > 0 && t.step%o.CheckpointEvery == 0) || t.step == o.Steps) {
			start := time.Now()
			if err := t.SaveCheckpoint(o.CheckpointPath); err != nil {
				return err
			}
			t.Timing.Checkpoint += time.Since(start)
			t.elapsed += time.Since(start)
		}
		if t.OnStep != nil {
			t.OnStep(r)
		}
	}
	return nil
}

// Losses returns the training loss of every step and the validation losses measured,
// with their steps, for a loss-curve plot.
func (t *Trainer) Losses() (steps []int, train []float64, valSteps []int, val []float64) {
	for _, r := range t.History {
		steps, train = append(steps, r.Step), append(train, r.Loss)
		if !math.IsNaN(r.ValLoss) {
			valSteps, val = append(valSteps, r.Step), append(val, r.ValLoss)
		}
	}
	return steps, train, valSteps, val
}

// String summarises the run: the model, the schedule and the last step.
func (t *Trainer) String() string {
	s := fmt.Sprintf("trainer: %v; batch %d × %d; %v; %d/%d steps", t.Model.Config, t.Options.Batch, t.Options.SeqLen, t.Schedule, t.step, t.Options.Steps)
	if n := len(t.History); n > 0 {
		s += "; last " + t.History[n-1].String()
	}
	return s
}

// HTML renders the run's state as a table for a notebook cell; pair it with a loss curve
// (viz.LossCurve(t.History, V)) redrawn from OnStep.
func (t *Trainer) HTML() string {
	var b strings.Builder
	row := func(k, v string) { fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td></tr>", k, v) }
	b.WriteString("<table>")
	row("model", t.Model.Config.String())
	row("batch", fmt.Sprintf("%d × %d tokens", t.Options.Batch, t.Options.SeqLen))
	row("schedule", t.Schedule.String())
	row("steps", fmt.Sprintf("%d of %d", t.step, t.Options.Steps))
	if n := len(t.History); n > 0 {
		r := t.History[n-1]
		row("loss", fmt.Sprintf("%.4f", r.Loss))
		for i := n - 1; i >= 0; i-- {
			if !math.IsNaN(t.History[i].ValLoss) {
				row("validation loss", fmt.Sprintf("%.4f (step %d)", t.History[i].ValLoss, t.History[i].Step))
				break
			}
		}
		row("learning rate", fmt.Sprintf("%.2e", r.LR))
		row("gradient norm", fmt.Sprintf("%.3f", r.GradNorm))
		row("tokens/s", Commas(int(r.TokensPerSec)))
		row("time left", r.Left.Round(time.Second).String())
	}
	b.WriteString("</table>")
	return b.String()
}
