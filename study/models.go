package study

import (
	"fmt"

	"github.com/gptnotes/gptnotes/gpt"
)

// The models the rows share, each loaded once per Run.

// openAI loads OpenAI's GPT-2 from --weights or gpt.Find, once; nil when there is none.
func (r *Run) openAI() *gpt.Model {
	if r.openaiTried {
		return r.openai
	}
	r.openaiTried = true
	path := r.weights
	if path == "" {
		p, err := gpt.Find()
		if err != nil {
			r.openaiErr = err
			return nil
		}
		path = p
	}
	m, tok, err := gpt.Open(path)
	if err != nil {
		r.openaiErr = err
		return nil
	}
	r.openai, r.gpt2, r.openaiPath = m, tok, path
	return m
}

// trained is the model for rows about a trained Model: OpenAI's GPT-2 when found, else the
// model shipped in testdata/.
func (r *Run) trained() (*gpt.Model, string, error) {
	if m := r.openAI(); m != nil {
		r.decoder = r.gpt2
		return m, r.openAIName(), nil
	}
	if r.shipped == nil && r.shippedErr == nil {
		path, err := gpt.ShippedModelPath()
		if err != nil {
			r.shippedErr = fmt.Errorf("%w: %v", errNeedsTrained, err)
		} else if m, tok, err := gpt.Open(path); err != nil {
			r.shippedErr = fmt.Errorf("the shipped Model: %w", err) // there is one, and it is broken
		} else {
			r.shipped, r.shippedPath = m, path
			r.decoder, r.encoder = tok, tok
		}
	}
	if r.shipped == nil {
		return nil, "", r.shippedErr
	}
	return r.shipped, "shipped model " + r.shippedPath, nil
}

// timingModel is the model the timing rows measure: OpenAI's GPT-2 small when found, else GPT-2
// small at init (the time of a forward does not depend on the weights).
func (r *Run) timingModel() (*gpt.Model, string, error) {
	if m := r.openAI(); m != nil {
		return m, r.openAIName(), nil
	}
	m, err := r.smallModel()
	return m, smallRandom, err
}

// goPrompt starts the trained-model rows on the shipped model, trained on Go source.
const goPrompt = "func main() {\n\tfmt.Println("

// promptFor is the prompt the trained-model rows start from: the study's capital prompt on
// OpenAI's GPT-2, a line of Go on the shipped model, else 11 fixed token ids.
func (r *Run) promptFor(m *gpt.Model) []int {
	switch {
	case m == r.openai && r.gpt2 != nil:
		return r.gpt2.Encode(capitalPrompt)
	case m == r.shipped && r.encoder != nil:
		return r.encoder.Encode(goPrompt)
	}
	return tokens(11, m.Config.VocabSize)
}

// smallModel is GPT-2 small at GPT-2's init (seed 1, scaled), built once.
func (r *Run) smallModel() (*gpt.Model, error) {
	if r.small == nil {
		m, err := gpt.New(gpt.Small)
		if err != nil {
			return nil, err
		}
		m.Init(1, true)
		r.small = m
	}
	return r.small, nil
}

const smallRandom = "GPT-2 small, random init (seed 1, scaled)"
