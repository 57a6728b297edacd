package check

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// The checks of notebook 3c (head scores, head ablation) run on the lesson model
// (gpt.LessonModelPath), the two-layer attention-only model whose heads the notebook
// studies, on its own sequence of the notebook's kind: a BOS token, then n random tokens,
// then the same n again. The tokens of one copy are all different, so each query of the
// second copy has exactly one earlier copy of its token, and the sequence is drawn from a
// generator seeded by the op's name: every call of a check runs on the same sequence, which
// the notebook does not show.

var lessonModel = &onceModel{path: gpt.LessonModelPath}

// lesson opens the lesson model once.
func lesson() (*gpt.Model, *tokenizer.Tokenizer, error) { return lessonModel.open() }

// repeated is a check's case on the lesson model: ids = [BOS, r, r] with n tokens in r.
type repeated struct {
	m   *gpt.Model
	ids []int // (2n+1)
	n   int
}

// drawRepeated picks op's sequence: n from 20 to 30 (fewer if the block is shorter), the
// tokens of r all different and none of them BOS.
func drawRepeated(op string) (*repeated, error) {
	m, tok, err := lesson()
	if err != nil {
		return nil, fmt.Errorf("check: the checker needs the lesson model: %w", err)
	}
	h := fnv.New64a()
	h.Write([]byte(op))
	rng := rand.New(rand.NewPCG(41, h.Sum64()))
	n := min(20+rng.IntN(11), (m.Config.BlockSize-1)/2, m.Config.VocabSize-1)
	bos := tok.EndTokenID()
	r := make([]int, 0, n)
	seen := map[int]bool{bos: true}
	for len(r) < n {
		if id := rng.IntN(m.Config.VocabSize); !seen[id] {
			seen[id] = true
			r = append(r, id)
		}
	}
	ids := append(append([]int{bos}, r...), r...)
	return &repeated{m: m, ids: ids, n: n}, nil
}

// String names the case: "the lesson model's 8 heads, on BOS and 23 random tokens twice (47 positions)".
func (c *repeated) String() string {
	return fmt.Sprintf("the lesson model's %d heads, on BOS and %d random tokens twice (%d positions)",
		c.m.Config.Layers*c.m.Config.Heads, c.n, len(c.ids))
}
