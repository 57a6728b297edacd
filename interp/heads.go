package interp

import (
	"bytes"
	"fmt"

	"github.com/gptnotes/gptnotes/gpt"
)

// Head scores: how much of a head's attention goes where a kind of head would put it, as
// TransformerLens's head detector measures it. A Detector turns a sequence into its
// detection pattern, a (T, T) matrix of 0s and 1s under the diagonal: the keys a head of
// that kind attends to from each query.
//
//	previous token   query t → key t-1
//	duplicate token  query t → every earlier key holding the same token
//	induction        query t → the key just after every earlier copy of t's token
//
// The score of a head is TransformerLens's "mul" measure: the attention on the
// pattern's 1s over all the attention, Σ pattern·detection / Σ pattern. Without
// exclusions Σ pattern is T (each query's row sums to 1), so queries with nothing to
// attend to count too: on n random tokens repeated twice, the first copy has no earlier
// duplicates and the induction score is at most n/2n = 0.5. PerQuery divides instead by
// the queries that have a target, the way ARENA's induction score averages the second
// copy only.

// Detector names a kind of head and makes its detection pattern.
type Detector struct {
	Name    string                   // e.g. "induction"
	Pattern func(ids []int) [][]bool // (T, T): query t, key s ≤ t
}

// PreviousToken is the detector of heads that attend to the token just before.
var PreviousToken = Detector{Name: "previous token", Pattern: func(ids []int) [][]bool {
	p := squareFalse(len(ids))
	for t := 1; t < len(ids); t++ {
		p[t][t-1] = true
	}
	return p
}}

// DuplicateToken is the detector of heads that attend to earlier copies of the query's token.
var DuplicateToken = Detector{Name: "duplicate token", Pattern: func(ids []int) [][]bool {
	p := squareFalse(len(ids))
	for t := range ids {
		for s := 0; s < t; s++ {
			p[t][s] = ids[s] == ids[t]
		}
	}
	return p
}}

// Induction is the detector of induction heads: from a token, attend to the token that
// followed its earlier copies ("A B … A" → B). It is DuplicateToken shifted one key right.
var Induction = Detector{Name: "induction", Pattern: func(ids []int) [][]bool {
	p := squareFalse(len(ids))
	for t := range ids {
		for s := 0; s < t; s++ { // s+1 may be t itself, after "A A"
			p[t][s+1] = ids[s] == ids[t]
		}
	}
	return p
}}

func squareFalse(T int) [][]bool {
	p := make([][]bool, T)
	for t := range p {
		p[t] = make([]bool, T)
	}
	return p
}

// ScoreOptions are TransformerLens's detector options, and one reduction of our own.
type ScoreOptions struct {
	ExcludeBOS     bool // drop the attention on position 0 (the BOS token) from both sums
	ExcludeCurrent bool // drop each query's attention on itself from both sums
	// PerQuery averages, over the queries whose detection row has a 1, the attention on
	// those 1s, instead of TransformerLens's ratio over every query.
	PerQuery bool
}

// ScoreHeads scores every head of m as a head of kind d on each of seqs, and returns the
// mean over the sequences, as TransformerLens's detect_head does for a list: a map of
// layer × head.
func ScoreHeads(m *gpt.Model, seqs [][]int, d Detector, opt ScoreOptions) (*gpt.LayerMap, error) {
	maps, err := ScoreHeadsAll(m, seqs, []Detector{d}, opt)
	if err != nil {
		return nil, err
	}
	return maps[0], nil
}

// ScoreHeadsAll is ScoreHeads for several detectors, one forward per sequence for all.
func ScoreHeadsAll(m *gpt.Model, seqs [][]int, ds []Detector, opt ScoreOptions) ([]*gpt.LayerMap, error) {
	cfg := m.Config
	L, NH := cfg.Layers, cfg.Heads
	if len(seqs) == 0 {
		return nil, fmt.Errorf("interp: head scores: no sequences")
	}
	maps := make([]*gpt.LayerMap, len(ds))
	for i, d := range ds {
		maps[i] = &gpt.LayerMap{Title: d.Name + " score", Columns: "head", Labels: headLabels(NH), Values: zeros(L, NH)}
	}
	for si, ids := range seqs {
		if len(ids) < 2 {
			return nil, fmt.Errorf("interp: head scores: sequence %d has %d tokens, want at least 2", si, len(ids))
		}
		_, cache, err := m.RunWithCache(ids, "blocks.*.attn.hook_pattern")
		if err != nil {
			return nil, fmt.Errorf("interp: head scores: sequence %d: %w", si, err)
		}
		dets := make([][][]bool, len(ds))
		for i, d := range ds {
			dets[i] = d.Pattern(ids)
		}
		T := len(ids)
		for l := 0; l < L; l++ {
			p := cache.MustGet(fmt.Sprintf("blocks.%d.attn.hook_pattern", l)).Data // (1, NH, T, T)
			for h := 0; h < NH; h++ {
				head := p[h*T*T : (h+1)*T*T]
				for i := range ds {
					maps[i].Values[l][h] += Score(head, dets[i], opt) / float64(len(seqs))
				}
			}
		}
	}
	return maps, nil
}

// Score is one head's score: pattern is its (T, T) attention, row-major, det the
// detection pattern.
func Score(pattern []float32, det [][]bool, opt ScoreOptions) float64 {
	T := len(det)
	var on, all, rows float64
	var perQuery float64
	for t := 0; t < T; t++ {
		var rowOn, rowAll float64
		any := false
		for s := 0; s <= t; s++ {
			if (opt.ExcludeBOS && s == 0) || (opt.ExcludeCurrent && s == t) {
				continue
			}
			a := float64(pattern[t*T+s])
			rowAll += a
			if det[t][s] {
				rowOn += a
				any = true
			}
		}
		on += rowOn
		all += rowAll
		if any {
			rows++
			perQuery += rowOn
		}
	}
	if opt.PerQuery {
		if rows == 0 {
			return 0
		}
		return perQuery / rows
	}
	if all == 0 {
		return 0
	}
	return on / all
}

// headLabels are "0" … "NH-1".
func headLabels(NH int) []string {
	s := make([]string, NH)
	for h := range s {
		s[h] = fmt.Sprint(h)
	}
	return s
}

// zeros is an (r, c) table of zeros.
func zeros(r, c int) [][]float64 {
	v := make([][]float64, r)
	for i := range v {
		v[i] = make([]float64, c)
	}
	return v
}

// Braces is the detector of heads that look from a closing brace back to its opening one:
// token(id) is a token's text. Braces are paired with a stack over the tokens; a token
// holding more than one brace, or both kinds, is skipped, and so are unmatched ones (a
// brace inside a string or comment is rare enough in Go source to ignore). Score it with
// PerQuery: the mean attention of a "}" on its "{".
func Braces(token func(id int) []byte) Detector {
	return Detector{Name: "closing brace → its opening brace", Pattern: func(ids []int) [][]bool {
		p := squareFalse(len(ids))
		for _, pr := range BracePairs(token, ids) {
			p[pr[1]][pr[0]] = true
		}
		return p
	}}
}

// BracePairs pairs the tokens holding "{" with those holding the matching "}": {open
// position, close position}, the inner pairs first.
func BracePairs(token func(id int) []byte, ids []int) [][2]int {
	var stack []int
	var pairs [][2]int
	for t, id := range ids {
		b := token(id)
		open, close := bytes.Count(b, []byte("{")), bytes.Count(b, []byte("}"))
		switch {
		case open == 1 && close == 0:
			stack = append(stack, t)
		case close == 1 && open == 0 && len(stack) > 0:
			pairs = append(pairs, [2]int{stack[len(stack)-1], t})
			stack = stack[:len(stack)-1]
		}
	}
	return pairs
}
