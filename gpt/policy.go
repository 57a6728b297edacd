package gpt

import (
	"fmt"
	"html"
	"math"
)

// Policy is how the next token is picked from the model's logits. It is a plain value that
// prints every setting, so it can be logged with every output (the study's habit 4):
//
//	gpt.Policy{Temperature: 0.8, TopK: 200, Seed: 1337}.String()
//	// "temperature 0.8, top-k 200, top-p off, seed 1337"
//
// The steps, in order, as in nanoGPT's sample.py and Hugging Face's warpers:
//
//  1. Temperature: the logits are divided by it before the softmax. Temperature 0 means
//     argmax (greedy): the highest logit wins, ties go to the lowest id, no division by zero,
//     never NaN, and the seed is not used.
//  2. Top-k: only the k most probable tokens stay.
//  3. Top-p (nucleus): of those, only the smallest set of the most probable tokens whose
//     renormalised mass reaches p stays.
//  4. One token is drawn from what is left, renormalised, with a PCG generator from
//     math/rand/v2 seeded by Seed: the same seed on the same machine gives the same tokens.
//
// The zero value of TopK and TopP means "off", so Policy{} is greedy decoding.
type Policy struct {
	Temperature float64 // ≥ 0; 0 = argmax; 1 = the model's own distribution; e.g. 0.8
	TopK        int     // ≥ 0; 0 = off; e.g. 200 (nanoGPT's default)
	TopP        float64 // in (0, 1]; 0 = off; e.g. 0.9
	Seed        uint64  // seeds the PCG generator, e.g. 1337
}

// Greedy is the argmax policy: temperature 0.
var Greedy = Policy{}

// NanoGPT is the policy of nanoGPT's sample.py: temperature 0.8, top-k 200, no top-p, seed 1337.
var NanoGPT = Policy{Temperature: 0.8, TopK: 200, Seed: 1337}

// Validate reports the first invalid setting, naming it.
func (p Policy) Validate() error {
	switch {
	case math.IsNaN(p.Temperature) || math.IsInf(p.Temperature, 0) || p.Temperature < 0:
		return fmt.Errorf("gpt: policy: temperature %v, want a finite number ≥ 0 (0 = argmax)", p.Temperature)
	case p.TopK < 0:
		return fmt.Errorf("gpt: policy: top-k %d, want ≥ 0 (0 = off)", p.TopK)
	case math.IsNaN(p.TopP) || p.TopP < 0 || p.TopP > 1:
		return fmt.Errorf("gpt: policy: top-p %v, want in (0, 1] (0 = off)", p.TopP)
	}
	return nil
}

// String prints every setting, the ones that are off included.
func (p Policy) String() string {
	t := fmt.Sprintf("temperature %v", p.Temperature)
	if p.Temperature == 0 {
		t += " (argmax)"
	}
	k := "top-k off"
	if p.TopK > 0 {
		k = fmt.Sprintf("top-k %d", p.TopK)
	}
	tp := "top-p off"
	if p.TopP > 0 {
		tp = fmt.Sprintf("top-p %v", p.TopP)
	}
	return fmt.Sprintf("%s, %s, %s, seed %d", t, k, tp, p.Seed)
}

// HTML renders the policy as one line for a notebook cell.
func (p Policy) HTML() string {
	return "<p><b>policy</b>: " + html.EscapeString(p.String()) + "</p>"
}
