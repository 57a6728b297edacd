// Package golden holds the shapes of the stored measurements that viz's golden images are
// drawn from (viz/testdata/*.json, written by viz/internal/goldendata), and reads them back.
package golden

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/viz"
)

// Attention is every head's pattern of one layer over one prompt.
type Attention struct {
	Tokens   []string    // (T) the prompt's tokens, decoded one by one
	Layer    int         // e.g. 3, counted from 0 as in blocks.3.attn.hook_pattern
	Patterns [][]float32 // (NH, T*T) row q is query position q's weights over keys 0…q
}

// TopN is the next-token candidates after Prompt.
type TopN struct {
	Prompt     string
	Candidates gpt.Candidates
	Vocab      Words // the candidates' tokens
}

// Precision is a fp32 against bf16 comparison and the tokens it generated.
type Precision struct {
	Comparison *gpt.PrecisionComparison
	Vocab      Words
}

// Positions is the decode timings of the cached and uncached loops after a prompt.
type Positions struct {
	PromptLen int
	Timings   []viz.DecodeTiming
}

// Loss is a training run's losses; ValLoss is nil where it was not measured.
type Loss struct {
	Vocab int
	Steps []Step
}

// Step is one training step's losses.
type Step struct {
	Step, Steps int
	Loss        float64
	ValLoss     *float64 `json:",omitempty"`
}

// Words is a gpt.Decoder over the few token ids a figure needs.
type Words map[int]string

// Decode concatenates the tokens of ids; an id it does not hold decodes as "?".
func (w Words) Decode(ids []int) string {
	s := ""
	for _, id := range ids {
		t, ok := w[id]
		if !ok {
			t = "?"
		}
		s += t
	}
	return s
}

// Vocab wraps a tokenizer to keep the few tokens a figure needs.
type Vocab struct {
	Decoder interface {
		gpt.Decoder
		Encode(string) []int
	}
}

// Encode is the tokenizer's.
func (v Vocab) Encode(s string) []int { return v.Decoder.Encode(s) }

// Tokens decodes ids one by one.
func (v Vocab) Tokens(ids []int) []string {
	ts := make([]string, len(ids))
	for i, id := range ids {
		ts[i] = v.Decoder.Decode([]int{id})
	}
	return ts
}

// Map is the tokens of ids by id.
func (v Vocab) Map(ids []int) Words {
	w := Words{}
	for _, id := range ids {
		w[id] = v.Decoder.Decode([]int{id})
	}
	return w
}

// Read decodes testdata/NAME.json (relative to viz/) into v.
func Read(name string, v any) error {
	b, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		return fmt.Errorf("golden: %w (write it with go run ./viz/internal/goldendata %s)", err, name)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("golden: read %s: %w", name, err)
	}
	return nil
}
