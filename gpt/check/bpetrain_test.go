package check_test

import (
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/gpt/check"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// studentTrainer is a student's BPE trainer, written as a notebook would: the chunks' bytes,
// then count, pick, merge, record. Its knobs are the mistakes.
type studentTrainer struct {
	oneList   bool                                   // the whole text as one chunk
	merge     func([]int, tokenizer.Pair, int) []int // tokenizer.Merge unless set
	firstID   int                                    // the id of the first merge; 256 is right
	better    func(p, best tokenizer.Pair) bool      // the tie-break; Train's unless set
	stopShort bool                                   // one merge fewer than asked
}

func (s studentTrainer) train(text string, n int) []tokenizer.MergeRule {
	chunks := tokenizer.Split(text)
	if s.oneList {
		chunks = []string{text}
	}
	var words [][]int
	for _, c := range chunks {
		var ids []int
		for _, b := range []byte(c) {
			ids = append(ids, int(b))
		}
		words = append(words, ids)
	}
	merge, better := s.merge, s.better
	if merge == nil {
		merge = tokenizer.Merge
	}
	if better == nil {
		better = func(p, best tokenizer.Pair) bool {
			return p.Left < best.Left || p.Left == best.Left && p.Right < best.Right
		}
	}
	if s.stopShort {
		n--
	}
	var rules []tokenizer.MergeRule
	for r := 0; r < n; r++ {
		counts := map[tokenizer.Pair]int{}
		for _, ids := range words {
			for p, c := range tokenizer.PairCounts(ids) {
				counts[p] += c
			}
		}
		best, top := tokenizer.Pair{}, 0
		for p, c := range counts {
			if c > top || c == top && better(p, best) {
				best, top = p, c
			}
		}
		if top == 0 {
			break
		}
		id := s.firstID + r
		for i := range words {
			words[i] = merge(words[i], best, id)
		}
		rules = append(rules, tokenizer.MergeRule{Left: best.Left, Right: best.Right, ID: id})
	}
	return rules
}

func TestBPETrain(t *testing.T) {
	right := studentTrainer{firstID: 256}
	if v := check.BPETrain(right.train); !v.OK || !strings.HasPrefix(v.String(), "right: your BPE trainer gives tokenizer.Train's output exactly") {
		t.Fatalf("a right trainer: %s", v)
	}
	// "aaa" → [aa aa]: a pair starting here becomes id; an id that ends a pair is dropped.
	overlapping := func(ids []int, p tokenizer.Pair, id int) []int {
		starts := func(i int) bool { return i >= 0 && i+1 < len(ids) && ids[i] == p.Left && ids[i+1] == p.Right }
		var out []int
		for i := range ids {
			switch {
			case starts(i):
				out = append(out, id)
			case !starts(i - 1):
				out = append(out, ids[i])
			}
		}
		return out
	}
	for _, c := range []struct {
		name string
		f    func(string, int) []tokenizer.MergeRule
		says string
	}{
		{"blank", func(string, int) []tokenizer.MergeRule { return nil }, "tokenizer.Train learns 3 merges, the first (97 97) → 256 \"aa\", the pair occurring 4 times; you have none."},
		{"across chunks", studentTrainer{firstID: 256, oneList: true}.train, "It gives what a known mistake gives: pairs counted across chunk boundaries"},
		{"overlapping twice", studentTrainer{firstID: 256, merge: overlapping}.train, "It gives what a known mistake gives: overlapping pairs merged twice"},
		{"first id 257", studentTrainer{firstID: 257}.train, "It gives what a known mistake gives: ranks off by one: merge r, counting from 0, makes token 256 + r (the first merge makes 256); yours makes 257 + r."},
		{"first id 255", studentTrainer{firstID: 255}.train, "yours makes 255 + r."},
		{"largest pair on ties", studentTrainer{firstID: 256, better: func(p, best tokenizer.Pair) bool {
			return p.Left > best.Left || p.Left == best.Left && p.Right > best.Right
		}}.train, "It gives what a known mistake gives: ties broken differently: (256 97) and (97 98) both occur 2 times at merge 2"},
		{"one merge short", studentTrainer{firstID: 256, stopShort: true}.train, "tokenizer.Train learns 3 merges; you have 2"},
		{"panics", func(string, int) []tokenizer.MergeRule { panic("boom") }, "your function panicked: boom"},
	} {
		v := check.BPETrain(c.f)
		if v.OK || !strings.HasPrefix(v.String(), "not yet: ") || !strings.Contains(v.String(), c.says) {
			t.Errorf("%s: %s\nwant it to say %q", c.name, v, c.says)
		}
	}
}
