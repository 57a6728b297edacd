package gpt

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var trainTestConfig = Config{VocabSize: 32, BlockSize: 16, Layers: 2, Heads: 2, Channels: 16}

// patternTokens is a learnable stream: a noisy counter modulo V.
func patternTokens(n, V int, seed uint64) []int32 {
	rng := rand.New(rand.NewPCG(seed, 0))
	out := make([]int32, n)
	for i := range out {
		out[i] = int32((i + rng.IntN(2)) % V)
	}
	return out
}

func newTestTrainer(t *testing.T, cfg Config, opts TrainOptions) *Trainer {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(11, true)
	tr, err := NewTrainer(m, patternTokens(4000, cfg.VocabSize, 1), patternTokens(600, cfg.VocabSize, 2), opts)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestTrainerLearnsAndReports(t *testing.T) {
	tr := newTestTrainer(t, trainTestConfig, TrainOptions{Batch: 4, Steps: 60, LR: 1e-2, EvalEvery: 20, EvalBatches: 2})
	var seen []StepResult
	tr.OnStep = func(r StepResult) { seen = append(seen, r) }
	before, err := tr.Evaluate()
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	after, _ := tr.Evaluate()
	t.Logf("validation loss %.3f → %.3f; last step: %v", before, after, seen[len(seen)-1])
	t.Log(seen[len(seen)-1].ProgressBar(20))
	if len(seen) != 60 || tr.StepsDone() != 60 {
		t.Fatalf("OnStep called %d times, %d steps done; want 60", len(seen), tr.StepsDone())
	}
	if !(after < before-1) {
		t.Errorf("validation loss went from %.3f to %.3f, want a drop of more than 1", before, after)
	}
	_, train, valSteps, _ := tr.Losses()
	if len(train) != 60 || len(valSteps) != 3 || valSteps[2] != 60 {
		t.Errorf("Losses: %d train, validation at %v; want 60 and [20 40 60]", len(train), valSteps)
	}
	if html := tr.HTML(); !strings.Contains(html, "<td>60 of 60</td>") || !strings.Contains(html, "validation loss") {
		t.Errorf("HTML lacks the step count or the validation loss: %s", html)
	}
	t.Log(tr)
	tm := tr.Timing
	t.Log("time:", tm)
	if tm.Forward <= 0 || tm.Backward <= 0 || tm.Update <= 0 || tm.Eval <= 0 || tm.Checkpoint != 0 {
		t.Errorf("Timing %+v: want forward, backward, AdamW and evaluation measured, no checkpoints", tm)
	}
	r := seen[10]
	if r.TokensPerSec <= 0 || r.Tokens != 4*16 || r.LR <= 0 || r.GradNorm <= 0 || !math.IsNaN(r.ValLoss) {
		t.Errorf("step 11 reports %+v", r)
	}
}

// TestResumeContinuesExactly stops a run halfway through, saves, resumes in a fresh model
// and trainer, and checks that the remaining losses are bit for bit those of an
// uninterrupted run.
func TestResumeContinuesExactly(t *testing.T) {
	opts := TrainOptions{Batch: 4, Steps: 8, LR: 3e-3, Seed: 5}
	whole := newTestTrainer(t, trainTestConfig, opts)
	var want []float64
	for range 8 {
		r, err := whole.Step()
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, r.Loss)
	}

	path := filepath.Join(t.TempDir(), "run.ckpt")
	first := newTestTrainer(t, trainTestConfig, opts)
	for range 4 {
		if _, err := first.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := first.SaveCheckpoint(path); err != nil {
		t.Fatal(err)
	}
	second := newTestTrainer(t, trainTestConfig, opts)
	second.Model.Init(999, false) // different weights, overwritten by Resume
	if err := second.Resume(path); err != nil {
		t.Fatal(err)
	}
	peek, steps, err := LoadTrainCheckpoint(path)
	if err != nil || steps != 4 || !slicesEqual(peek.Params.Data, first.Model.Params.Data) {
		t.Errorf("LoadTrainCheckpoint: %d steps, same weights %v, err %v", steps, err == nil && slicesEqual(peek.Params.Data, first.Model.Params.Data), err)
	}
	if second.StepsDone() != 4 || len(second.History) != 4 {
		t.Fatalf("resumed at step %d with %d history entries, want 4", second.StepsDone(), len(second.History))
	}
	for i := 4; i < 8; i++ {
		r, err := second.Step()
		if err != nil {
			t.Fatal(err)
		}
		if r.Loss != want[i] || r.Step != i+1 {
			t.Errorf("resumed step %d: loss %.9f, uninterrupted %.9f", r.Step, r.Loss, want[i])
		}
	}
	if !slicesEqual(second.Model.Params.Data, whole.Model.Params.Data) {
		t.Error("parameters after the resumed run differ from the uninterrupted run's")
	}
}

func TestResumeRefusesAnotherConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.ckpt")
	a := newTestTrainer(t, trainTestConfig, TrainOptions{Batch: 4, Steps: 4})
	if _, err := a.Step(); err != nil {
		t.Fatal(err)
	}
	if err := a.SaveCheckpoint(path); err != nil {
		t.Fatal(err)
	}
	other := trainTestConfig
	other.Channels = 24
	b := newTestTrainer(t, other, TrainOptions{Batch: 4, Steps: 4})
	before := append([]float32(nil), b.Model.Params.Data...)
	err := b.Resume(path)
	if err == nil || !strings.Contains(err.Error(), "another model") {
		t.Fatalf("resume with another config: err = %v", err)
	}
	t.Log(err)
	if !slicesEqual(before, b.Model.Params.Data) {
		t.Error("a refused resume changed the parameters")
	}
	c := newTestTrainer(t, trainTestConfig, TrainOptions{Batch: 2, Steps: 4})
	if err := c.Resume(path); err == nil {
		t.Error("resume with another batch size: no error")
	}
}

func slicesEqual(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// TestNaNLossStopsAndKeepsCheckpoint poisons one weight so the loss is NaN: the run stops
// naming the step and the gradient, the parameters are not updated, and the checkpoint
// of the earlier good run is left as it was.
func TestNaNLossStopsAndKeepsCheckpoint(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.ckpt")
	tr := newTestTrainer(t, trainTestConfig, TrainOptions{Batch: 4, Steps: 6, CheckpointPath: path, CheckpointEvery: 2})
	for range 2 {
		if _, err := tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.SaveCheckpoint(path); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr.Model.Params.H[1].CFcW[5] = float32(math.NaN())
	before := append([]float32(nil), tr.Model.Params.Data...)
	err = tr.Run(context.Background())
	if err == nil {
		t.Fatal("NaN weights: Run returned no error")
	}
	t.Log(err)
	for _, want := range []string{"step 3", "NaN", "largest gradient"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if !slicesEqual(before, tr.Model.Params.Data) {
		t.Error("the failed step changed the parameters")
	}
	now, _ := os.ReadFile(path)
	if !bytes.Equal(good, now) {
		t.Error("the failed run overwrote the checkpoint")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

func TestTrainerRejectsShortData(t *testing.T) {
	m, _ := New(trainTestConfig)
	m.Init(1, true)
	_, err := NewTrainer(m, patternTokens(10, 32, 1), patternTokens(100, 32, 2), TrainOptions{Batch: 2})
	if err == nil || !strings.Contains(err.Error(), "block size 16") {
		t.Fatalf("10 training tokens with block size 16: err = %v", err)
	}
	t.Log(err)
	_, err = NewTrainer(m, patternTokens(100, 32, 1), patternTokens(100, 32, 2), TrainOptions{SeqLen: 17})
	if err == nil {
		t.Error("sequence length past the block size: no error")
	}
	_, err = NewTrainer(m, patternTokens(100, 40, 1), patternTokens(100, 32, 2), TrainOptions{})
	if err == nil || !strings.Contains(err.Error(), "outside the model's vocabulary") {
		t.Errorf("token ids past the vocabulary: err = %v", err)
	}
}
