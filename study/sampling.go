package study

import (
	"fmt"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

// The rows of "Sampling is a policy on top": next-token distributions after the study's two
// prompts on OpenAI's GPT-2 (no number without its weights), top-k and top-p, greedy repeats,
// nanoGPT's defaults.

const (
	capitalPrompt = "The capital of France is"
	numpyPrompt   = "import numpy as"
)

// openAILogits are OpenAI GPT-2's next-token logits (V) after prompt, computed once per run.
func (r *Run) openAILogits(prompt string) ([]float32, string, error) {
	m := r.openAI()
	if m == nil {
		return nil, "", errNeedsWeights
	}
	if l, ok := r.logits[prompt]; ok {
		return l, r.openAIName(), nil
	}
	l, err := m.NextLogits(r.gpt2.Encode(prompt))
	if err != nil {
		return nil, "", err
	}
	if r.logits == nil {
		r.logits = map[string][]float32{}
	}
	r.logits[prompt] = l
	return l, r.openAIName(), nil
}

func (r *Run) openAIName() string { return "OpenAI GPT-2 small (" + r.openaiPath + ")" }

// rankOf is the 1-based rank of id among logits, and its probability at T = 1.
func rankOf(logits []float32, id int) (int, float64) {
	rank := 1
	for _, l := range logits {
		if l > logits[id] {
			rank++
		}
	}
	cs, _ := gpt.Ranked(logits, 1, rank)
	return rank, cs[len(cs)-1].Prob
}

func rowCapital(r *Run) (Result, error) {
	l, model, err := r.openAILogits(capitalPrompt)
	if err != nil {
		return Result{}, err
	}
	top, err := gpt.Ranked(l, 1, 10)
	if err != nil {
		return Result{}, err
	}
	paris := r.gpt2.Encode(" Paris")
	rank, p := rankOf(l, paris[0])
	n, _ := gpt.NucleusSize(l, 1, 0.9)
	h, _ := gpt.Entropy(l, 1)
	if err := r.save(viz.TopTokens(top, r.gpt2, fmt.Sprintf("next token after %q", capitalPrompt)), "topn"); err != nil {
		return Result{}, err
	}
	return Result{Ours: fmt.Sprintf("%q %.1f%%, \" Paris\" %s at %.1f%%; %s tokens; %.1f bits",
		r.gpt2.Decode([]int{top[0].ID}), 100*top[0].Prob, ordinal(rank), 100*p, gpt.Commas(n), h),
		Numbers: []Number{{"top p", top[0].Prob, ""}, {"Paris rank", float64(rank), ""}, {"Paris p", p, ""},
			{"90% set", float64(n), "tokens"}, {"entropy", h, "bits"}},
		Model: model, Figures: []string{"topn"}}, nil
}

func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}

func rowNumpy(r *Run) (Result, error) {
	l, model, err := r.openAILogits(numpyPrompt)
	if err != nil {
		return Result{}, err
	}
	top, err := gpt.Ranked(l, 1, 1)
	if err != nil {
		return Result{}, err
	}
	n, _ := gpt.NucleusSize(l, 1, 0.9)
	h, _ := gpt.Entropy(l, 1)
	return Result{Ours: fmt.Sprintf("%q %.0f%%; %d tokens; %.1f bits", r.gpt2.Decode([]int{top[0].ID}), 100*top[0].Prob, n, h),
		Numbers: []Number{{"top p", top[0].Prob, ""}, {"90% set", float64(n), "tokens"}, {"entropy", h, "bits"}},
		Model:   model}, nil
}

// capitalAndNumpy returns OpenAI's GPT-2 next-token logits after the study's two prompts: a
// wide distribution ("The capital of France is") and a narrow one ("import numpy as").
func (r *Run) capitalAndNumpy() (capital, numpy []float32, model string, err error) {
	capital, model, err = r.openAILogits(capitalPrompt)
	if err != nil {
		return nil, nil, "", err
	}
	numpy, _, err = r.openAILogits(numpyPrompt)
	return capital, numpy, model, err
}

func rowTopK200(r *Run) (Result, error) {
	lc, ln, model, err := r.capitalAndNumpy()
	if err != nil {
		return Result{}, err
	}
	capital, _ := gpt.TopKMass(lc, 0.8, 200)
	numpy200, _ := gpt.TopKMass(ln, 0.8, 200)
	numpy1, _ := gpt.TopKMass(ln, 0.8, 1)
	return Result{Ours: fmt.Sprintf("holds %.0f%% after the capital prompt; after numpy keeps 199 options sharing %.1f%%",
		100*capital, 100*(numpy200-numpy1)),
		Numbers: []Number{{"capital top-200 mass", capital, ""}, {"numpy mass of the other 199", numpy200 - numpy1, ""}},
		Model:   model}, nil
}

func rowTopP(r *Run) (Result, error) {
	lc, ln, model, err := r.capitalAndNumpy()
	if err != nil {
		return Result{}, err
	}
	nc, _ := gpt.NucleusSize(lc, 0.8, 0.9)
	nn, _ := gpt.NucleusSize(ln, 0.8, 0.9)
	var sweeps []viz.TemperatureSweep
	for _, p := range []struct {
		prompt string
		logits []float32
	}{{capitalPrompt, lc}, {numpyPrompt, ln}} {
		s, err := viz.SweepTemperature(p.prompt, p.logits, 0.9, temperatures())
		if err != nil {
			return Result{}, err
		}
		sweeps = append(sweeps, s)
	}
	if err := r.save(viz.TopP(sweeps), "nucleus"); err != nil {
		return Result{}, err
	}
	if err := r.saveHTML(viz.SliderTemperature(sweeps), "nucleus_slider"); err != nil {
		return Result{}, err
	}
	return Result{Ours: fmt.Sprintf("%s tokens for capital, %s for numpy", gpt.Commas(nc), gpt.Commas(nn)),
		Numbers: []Number{{"capital", float64(nc), "tokens"}, {"numpy", float64(nn), "tokens"}},
		Model:   model, Figures: []string{"nucleus"}, Pages: []string{"nucleus_slider"}}, nil
}

// temperatures are 0.1, 0.2, … 2.0, the slider's stops.
func temperatures() []float64 {
	var ts []float64
	for i := 1; i <= 20; i++ {
		ts = append(ts, float64(i)/10)
	}
	return ts
}

func rowGreedyRepeats(r *Run) (Result, error) {
	m := r.openAI()
	if m == nil {
		return Result{}, errNeedsWeights
	}
	if _, _, err := r.openAILogits(capitalPrompt); err != nil { // loads the tokenizer
		return Result{}, err
	}
	g, err := gpt.NewGenerator(m, r.gpt2.Encode(capitalPrompt), gpt.Greedy, true)
	if err != nil {
		return Result{}, err
	}
	if _, err := g.Steps(200); err != nil {
		return Result{}, err
	}
	at, span := gpt.FirstRepeat(g.Generated(), 8)
	if at < 0 {
		return Result{Ours: "no span of 8 tokens repeats in 200 greedy tokens", Model: r.openAIName()}, nil
	}
	return Result{Ours: fmt.Sprintf("from token %d it repeats the 8-token span it generated at token %d: %q",
		at, at-span, r.gpt2.Decode(g.Generated()[at:at+8])),
		Numbers: []Number{{"repeat at", float64(at), "token"}, {"first seen at", float64(at - span), "token"}},
		Model:   r.openAIName()}, nil
}

func rowNanoGPTDefaults(r *Run) (Result, error) {
	p := gpt.NanoGPT
	return Result{Ours: "gpt.NanoGPT = " + p.String(),
		Numbers: []Number{{"temperature", p.Temperature, ""}, {"top-k", float64(p.TopK), "tokens"}, {"top-p", p.TopP, ""}},
		Model:   "gpt.Policy"}, nil
}
