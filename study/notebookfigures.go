package study

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

// Figures the notebooks show that are not rows of the study: a loss curve, attention patterns,
// the sampling figures on the model at hand.

// rowLossCurve trains a byte-level gpt.Tiny on the Go source of the strings package for a
// few hundred steps and draws its loss curve: the figure the training notebook updates live.
func rowLossCurve(r *Run) (Result, error) {
	dir := filepath.Join(gpt.GoSourceDir(), "strings")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		return Result{}, fmt.Errorf("no Go source in %s: %v", dir, err)
	}
	var text []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return Result{}, err
		}
		text = append(text, b...)
	}
	ids := make([]int32, len(text))
	for i, b := range text {
		ids[i] = int32(b)
	}
	cut := len(ids) * 9 / 10
	cfg := gpt.Tiny
	cfg.VocabSize = 256 // bytes
	m, err := gpt.New(cfg)
	if err != nil {
		return Result{}, err
	}
	m.Init(1, true)
	const steps = 300
	t, err := gpt.NewTrainer(m, ids[:cut], ids[cut:], gpt.TrainOptions{Batch: 8, SeqLen: 64, Steps: steps, LR: 3e-3,
		Seed: 1, EvalEvery: 50, EvalBatches: 4})
	if err != nil {
		return Result{}, err
	}
	for i := 0; i < steps; i++ {
		res, err := t.Step()
		if err != nil {
			return Result{}, err
		}
		r.note("loss-curve: step %d of %d, loss %.2f", res.Step, steps, res.Loss)
		if res.Step%50 == 0 {
			v, err := t.Evaluate()
			if err != nil {
				return Result{}, err
			}
			t.History[len(t.History)-1].ValLoss = v
		}
	}
	if err := r.save(viz.LossCurve(t.History, cfg.VocabSize), "loss"); err != nil {
		return Result{}, err
	}
	first, last := t.History[0], t.History[len(t.History)-1]
	return Result{Ours: fmt.Sprintf("loss %.2f → %.2f in %d steps (validation %.2f; ln 256 = %.2f)",
		first.Loss, last.Loss, steps, last.ValLoss, math.Log(256)),
		Numbers: []Number{{"first loss", float64(first.Loss), "nats"}, {"last loss", float64(last.Loss), "nats"},
			{"steps", steps, ""}, {"validation loss", float64(last.ValLoss), "nats"}},
		Model: fmt.Sprintf("byte-level gpt.Tiny, %s bytes of Go's strings package, seed 1", gpt.Commas(len(text))), Figures: []string{"loss"}}, nil
}

// rowAttention traces 16 tokens through the trained model (or GPT-2 small at init when there
// is none), once per query position, and draws layer L/2 head 0 and every head of that layer.
func rowAttention(r *Run) (Result, error) {
	m, name, err := r.trained()
	if errors.Is(err, errNeedsTrained) {
		if m, err = r.smallModel(); err != nil {
			return Result{}, err
		}
		name = smallRandom
	}
	if err != nil {
		return Result{}, err
	}
	ids := r.promptFor(m)
	for len(ids) < 16 {
		ids = append(ids, ids...)
	}
	ids = ids[:16]
	var traces []*gpt.Trace
	for q := range ids {
		tr, err := m.Trace(ids, gpt.TraceOptions{Position: q})
		if err != nil {
			return Result{}, err
		}
		traces = append(traces, tr)
	}
	layer := m.Config.Layers / 2
	w, err := viz.AttentionMatrix(traces, layer, 0)
	if err != nil {
		return Result{}, err
	}
	var labels []string
	for _, id := range ids {
		if r.decoder != nil {
			labels = append(labels, r.decoder.Decode([]int{id}))
		} else {
			labels = append(labels, fmt.Sprint(id))
		}
	}
	p, err := viz.AttentionMap(w, labels, layer, 0)
	if err != nil {
		return Result{}, err
	}
	if err := r.save(p, "attention"); err != nil {
		return Result{}, err
	}
	heads, err := viz.AttentionHeads(traces[len(traces)-1], layer, r.decoder)
	if err != nil {
		return Result{}, err
	}
	if err := r.save(heads, "attention_heads"); err != nil {
		return Result{}, err
	}
	// How sharp is that head: the mean over queries of the largest weight.
	sharp := 0.0
	for q := range ids {
		best := float32(0)
		for _, v := range w[q*len(ids) : q*len(ids)+q+1] {
			best = max(best, v)
		}
		sharp += float64(best) / float64(len(ids))
	}
	return Result{Ours: fmt.Sprintf("16 positions, layer %d head 0: mean largest weight %.2f", layer, sharp),
		Numbers: []Number{{"positions", float64(len(ids)), "positions"}, {"layer", float64(layer), ""}, {"mean largest weight", sharp, ""}},
		Model:   name, Figures: []string{"attention", "attention_heads"}}, nil
}

// rowSamplingFigures draws the sampling figures on the trained model the run has: the study's
// prompts on OpenAI's GPT-2, lines of Go on the shipped model.
func rowSamplingFigures(r *Run) (Result, error) {
	m, name, err := r.trained()
	if err != nil {
		return Result{}, err
	}
	prompts := []string{capitalPrompt, numpyPrompt}
	var enc func(string) []int
	switch {
	case m == r.openai:
		enc = r.gpt2.Encode
	case r.encoder != nil:
		prompts = []string{"func main() {\n\t", "import (\n\t\"", "for i := 0; i <"}
		enc = r.encoder.Encode
	default:
		return Result{}, fmt.Errorf("the shipped model has no tokenizer beside it to encode prompts")
	}
	var sweeps []viz.TemperatureSweep
	var parts []string
	var nums []Number
	for i, prompt := range prompts {
		l, err := m.NextLogits(enc(prompt))
		if err != nil {
			return Result{}, err
		}
		s, err := viz.SweepTemperature(prompt, l, 0.9, temperatures())
		if err != nil {
			return Result{}, err
		}
		sweeps = append(sweeps, s)
		at1 := s.At(1)
		parts = append(parts, fmt.Sprintf("%q: %d tokens hold 90%% at T=1, %.1f bits", prompt, s.NucleusSizes[at1], s.EntropyBits))
		nums = append(nums, Number{fmt.Sprintf("%q: 90%% set", prompt), float64(s.NucleusSizes[at1]), "tokens"},
			Number{fmt.Sprintf("%q: entropy", prompt), s.EntropyBits, "bits"})
		if i == 0 {
			top, err := gpt.Ranked(l, 1, 10)
			if err != nil {
				return Result{}, err
			}
			if err := r.save(viz.TopTokens(top, r.decoder, fmt.Sprintf("next token after %q", prompt)), "next_token"); err != nil {
				return Result{}, err
			}
		}
	}
	if err := r.save(viz.TopP(sweeps), "sampling"); err != nil {
		return Result{}, err
	}
	if err := r.saveHTML(viz.SliderTemperature(sweeps), "sampling_slider"); err != nil {
		return Result{}, err
	}
	return Result{Ours: strings.Join(parts, "; "), Numbers: nums, Model: name,
		Figures: []string{"next_token", "sampling"}, Pages: []string{"sampling_slider"}}, nil
}
