package tokenizer

import (
	"container/heap"
	"fmt"
	"sort"
)

// This file is training, minbpe's train(): start from the 256 bytes and
// repeatedly merge the most frequent adjacent pair into a new token. Counting
// every pair again after each merge (minbpe's way) costs a pass over the text
// per merge; here the counts are kept up to date instead: a merge only
// touches the chunks holding its pair, found through an index from pair to
// chunks, and a heap gives the most frequent pair.

// TrainOptions are the optional settings of Train; the zero value trains with
// GPT-2's pre-split and no special tokens.
type TrainOptions struct {
	// Pattern is the pre-split: SplitGPT2 (the default when empty) or
	// SplitNone.
	Pattern string
	// Special lists special tokens, e.g. []string{EndOfText}. They get the ids
	// after the merges, in this order, and their occurrences in the training
	// text are boundaries that no merge crosses and that are not counted.
	Special []string
	// Progress, if set, is called after every merge.
	Progress func(TrainStep)
}

// TrainStep describes one merge made by Train.
type TrainStep struct {
	Rank  int       // 0 for the first merge
	Total int       // number of merges Train is asked to make
	Rule  MergeRule // the pair and the new token's id (256 + Rank)
	Count int       // occurrences of the pair in the text when it was merged
	Token string    // the new token's bytes
}

// String formats a step as "merge 1/3: (97 97) → 256 \"aa\" (4 times)".
func (s TrainStep) String() string {
	return fmt.Sprintf("merge %d/%d: (%d %d) → %d %q (%d times)", s.Rank+1, s.Total, s.Rule.Left, s.Rule.Right, s.Rule.ID, s.Token, s.Count)
}

// Train learns a byte-level BPE tokenizer of vocabSize tokens from text:
// 256 one-byte tokens, vocabSize-256-len(opts.Special) merges, then the
// special tokens. Of the pairs that occur most often, the one with the
// smallest (Left, Right) is merged first, so training is deterministic. If
// the text runs out of pairs, training stops early and VocabSize is smaller
// than asked.
//
//	Train("aaabdaaabac", 259, TrainOptions{}) merges (97 97)→256, (97 98)→257,
//	(256 257)→258, and then encodes the text as [258 100 258 97 99].
func Train(text string, vocabSize int, opts TrainOptions) (*Tokenizer, error) {
	split := opts.Pattern
	if split == "" {
		split = SplitGPT2
	}
	if split != SplitGPT2 && split != SplitNone {
		return nil, fmt.Errorf("tokenizer: train: unknown pre-split %q (want %q or %q)", split, SplitGPT2, SplitNone)
	}
	special := make(map[string]int)
	for _, s := range opts.Special {
		if s == "" {
			return nil, fmt.Errorf("tokenizer: train: empty special token")
		}
		if _, dup := special[s]; dup {
			return nil, fmt.Errorf("tokenizer: train: special token %q listed twice", s)
		}
		special[s] = len(special)
	}
	total := vocabSize - 256 - len(special)
	if total < 0 {
		return nil, fmt.Errorf("tokenizer: train: vocabulary size %d is smaller than 256 byte tokens + %d special tokens", vocabSize, len(special))
	}

	words := countChunks(text, split, opts.Special)
	s := newTrainState(words)
	var merges []MergeRule
	for rank := range total {
		pair, count, ok := s.best()
		if !ok {
			break
		}
		rule := MergeRule{Left: int(pair >> 32), Right: int(uint32(pair)), ID: 256 + rank}
		s.merge(pair, int32(rule.ID))
		merges = append(merges, rule)
		if opts.Progress != nil {
			s.token = append(s.token, append(append([]byte{}, s.token[rule.Left]...), s.token[rule.Right]...))
			opts.Progress(TrainStep{Rank: rank, Total: total, Rule: rule, Count: count, Token: string(s.token[rule.ID])})
		}
	}
	for s, i := range special {
		special[s] = 256 + len(merges) + i
	}
	var byteID [256]int32
	for b := range byteID {
		byteID[b] = int32(b)
	}
	t, err := newTokenizer(split, byteID, merges, special, true)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: train: %w", err)
	}
	return t, nil
}

// word is a distinct chunk of the training text, as token ids, with the
// number of times it occurs.
type word struct {
	ids   []int32
	count int
}

// countChunks pre-splits text (cut at special tokens first) and counts each
// distinct chunk. The words come sorted by text, so training does not depend
// on map order.
func countChunks(text, split string, specials []string) []word {
	counts := make(map[string]int)
	for len(text) > 0 {
		at, s := nextSpecial(text, specials)
		part := text[:at]
		if split == SplitNone {
			if part != "" {
				counts[part]++
			}
		} else {
			for i := 0; i < len(part); {
				j := nextChunk(part, i)
				counts[part[i:j]]++
				i = j
			}
		}
		if at == len(text) {
			break
		}
		text = text[at+len(s):]
	}
	texts := make([]string, 0, len(counts))
	for c := range counts {
		texts = append(texts, c)
	}
	sort.Strings(texts)
	words := make([]word, len(texts))
	for i, c := range texts {
		ids := make([]int32, len(c))
		for j := range len(c) {
			ids[j] = int32(c[j])
		}
		words[i] = word{ids, counts[c]}
	}
	return words
}

// trainState holds the pair counts while training. A pair is packed as
// Left<<32 | Right.
type trainState struct {
	words  []word
	counts map[uint64]int     // pair → occurrences in the text
	where  map[uint64][]int32 // pair → words that held it when it appeared (may be stale)
	queue  pairQueue          // pairs by count; entries whose count changed since are stale
	token  [][]byte           // id → bytes, only kept for Progress
}

func newTrainState(words []word) *trainState {
	s := &trainState{words: words, counts: make(map[uint64]int), where: make(map[uint64][]int32)}
	for b := range 256 {
		s.token = append(s.token, []byte{byte(b)})
	}
	for wi, w := range words {
		for i := 0; i+1 < len(w.ids); i++ {
			p := pack(w.ids[i], w.ids[i+1])
			s.counts[p] += w.count
			if l := s.where[p]; len(l) == 0 || l[len(l)-1] != int32(wi) {
				s.where[p] = append(l, int32(wi))
			}
		}
	}
	for p, c := range s.counts {
		s.queue = append(s.queue, queued{p, c})
	}
	heap.Init(&s.queue)
	return s
}

func pack(left, right int32) uint64 { return uint64(uint32(left))<<32 | uint64(uint32(right)) }

// best returns the most frequent pair, dropping stale queue entries.
func (s *trainState) best() (pair uint64, count int, ok bool) {
	for s.queue.Len() > 0 {
		q := heap.Pop(&s.queue).(queued)
		if c := s.counts[q.pair]; c == q.count && c > 0 {
			return q.pair, c, true
		}
	}
	return 0, 0, false
}

// merge replaces pair by id in every word holding it and updates the counts
// of the pairs around each replacement.
func (s *trainState) merge(pair uint64, id int32) {
	left, right := int32(pair>>32), int32(uint32(pair))
	changed := make(map[uint64]int) // pair → change in count
	for _, wi := range s.where[pair] {
		w := &s.words[wi]
		if !holds(w.ids, left, right) {
			continue // stale: an earlier merge took the pair out of this word
		}
		// Take the word's pairs out, merge, and put them back: pairs away
		// from the merges cancel out in changed.
		for i := 0; i+1 < len(w.ids); i++ {
			changed[pack(w.ids[i], w.ids[i+1])] -= w.count
		}
		out := w.ids[:0]
		for i := 0; i < len(w.ids); i++ {
			if i+1 < len(w.ids) && w.ids[i] == left && w.ids[i+1] == right {
				out = append(out, id)
				i++
			} else {
				out = append(out, w.ids[i])
			}
		}
		for i := 0; i+1 < len(out); i++ {
			changed[pack(out[i], out[i+1])] += w.count
		}
		w.ids = out
		for i := 0; i+1 < len(out); i++ {
			if out[i] == id || out[i+1] == id {
				p := pack(out[i], out[i+1])
				if l := s.where[p]; len(l) == 0 || l[len(l)-1] != wi {
					s.where[p] = append(l, wi)
				}
			}
		}
	}
	delete(s.where, pair)
	for p, d := range changed {
		if d == 0 {
			continue
		}
		c := s.counts[p] + d
		if c <= 0 {
			delete(s.counts, p)
			continue
		}
		s.counts[p] = c
		heap.Push(&s.queue, queued{p, c})
	}
}

// queued is a pair and its count when it was queued.
type queued struct {
	pair  uint64
	count int
}

// pairQueue is a max-heap by count; among equal counts the smaller pair
// (by Left, then Right) comes first.
type pairQueue []queued

func (q pairQueue) Len() int { return len(q) }
func (q pairQueue) Less(i, j int) bool {
	if q[i].count != q[j].count {
		return q[i].count > q[j].count
	}
	return q[i].pair < q[j].pair
}
func (q pairQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *pairQueue) Push(x any)   { *q = append(*q, x.(queued)) }
func (q *pairQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// holds reports whether ids has the pair (left, right).
func holds(ids []int32, left, right int32) bool {
	for i := 0; i+1 < len(ids); i++ {
		if ids[i] == left && ids[i+1] == right {
			return true
		}
	}
	return false
}
