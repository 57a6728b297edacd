package tokenizer

import (
	"fmt"
	"strings"
	"testing"
)

func TestTrainKnownAnswer(t *testing.T) {
	// The example from Wikipedia's byte pair encoding page, as in minbpe.
	tok, err := Train("aaabdaaabac", 256+3, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := tok.Encode("aaabdaaabac")
	if want := []int{258, 100, 258, 97, 99}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Encode = %v, want %v", got, want)
	}
	if back := tok.Decode(got); back != "aaabdaaabac" {
		t.Errorf("Decode = %q", back)
	}
}

// trainNaive is minbpe's training loop, counting every pair again after each
// merge with PairCounts and Merge; Train must make the same merges.
func trainNaive(text string, merges int) []MergeRule {
	var chunks [][]int
	for _, c := range Split(text) {
		ids := make([]int, len(c))
		for i := range len(c) {
			ids[i] = int(c[i])
		}
		chunks = append(chunks, ids)
	}
	var rules []MergeRule
	for r := range merges {
		counts := make(map[Pair]int)
		for _, ids := range chunks {
			AddPairCounts(counts, ids, 1)
		}
		var best Pair
		bestCount := 0
		for p, c := range counts {
			if c > bestCount || c == bestCount && (p.Left < best.Left || p.Left == best.Left && p.Right < best.Right) {
				best, bestCount = p, c
			}
		}
		if bestCount == 0 {
			break
		}
		id := 256 + r
		for i, ids := range chunks {
			chunks[i] = Merge(ids, best, id)
		}
		rules = append(rules, MergeRule{best.Left, best.Right, id})
	}
	return rules
}

func TestTrainMatchesNaive(t *testing.T) {
	text := goSource(t, 40_000)[:40_000]
	const merges = 300
	tok, err := Train(text, 256+merges, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, want := tok.Merges(), trainNaive(text, merges)
	if len(got) != len(want) {
		t.Fatalf("%d merges, naive training made %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("merge %d: %+v, naive training %+v", i, got[i], want[i])
		}
	}
	if back := tok.Decode(tok.Encode(text)); back != text {
		t.Error("Decode(Encode(text)) != text")
	}
}

func TestTrainSpecial(t *testing.T) {
	text := strings.Repeat("package main<|endoftext|>", 50)
	var steps []TrainStep
	tok, err := Train(text, 256+20+1, TrainOptions{Special: []string{EndOfText}, Progress: func(s TrainStep) { steps = append(steps, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if tok.EndTokenID() != tok.VocabSize()-1 {
		t.Errorf("EndTokenID %d, VocabSize %d: want the special token last", tok.EndTokenID(), tok.VocabSize())
	}
	for _, r := range tok.Merges() {
		if strings.ContainsAny(string(tok.Token(r.ID)), "<|>") && strings.Contains(string(tok.Token(r.ID)), "main") {
			t.Errorf("merge %+v crosses the special token: %q", r, tok.Token(r.ID))
		}
	}
	if len(steps) != len(tok.Merges()) || steps[0].Rank != 0 || steps[0].Total != 20 {
		t.Errorf("Progress called %d times (first %+v) for %d merges", len(steps), steps[0], len(tok.Merges()))
	}
	ids := tok.EncodeWithSpecial("package main<|endoftext|>", []string{EndOfText})
	if ids[len(ids)-1] != tok.EndTokenID() {
		t.Errorf("EncodeWithSpecial = %v, want it to end with %d", ids, tok.EndTokenID())
	}
}

func TestTrainErrors(t *testing.T) {
	if _, err := Train("abc", 256, TrainOptions{Special: []string{EndOfText}}); err == nil || !strings.Contains(err.Error(), "smaller than 256") {
		t.Errorf("vocabulary 256 with one special token: err = %v", err)
	}
	if _, err := Train("abc", 100, TrainOptions{}); err == nil {
		t.Error("vocabulary 100: no error")
	}
	if _, err := Train("abc", 300, TrainOptions{Pattern: "cl100k"}); err == nil {
		t.Error("unknown pattern: no error")
	}
	// Running out of pairs stops early.
	tok, err := Train("ab", 300, TrainOptions{})
	if err != nil || tok.VocabSize() != 257 {
		t.Errorf("Train(\"ab\", 300): VocabSize %v, err %v; want 257, nil", tok.VocabSize(), err)
	}
}

func TestTrainNoSplit(t *testing.T) {
	tok, err := Train("hello world hello world", 256+10, TrainOptions{Pattern: SplitNone})
	if err != nil {
		t.Fatal(err)
	}
	// Without a pre-split, merges cross the spaces: "hello world" is one token.
	if ids := tok.Encode("hello world hello world"); len(ids) > 3 {
		t.Errorf("Encode = %v, want at most 3 tokens", ids)
	}
}

func TestHelpers(t *testing.T) {
	got := PairCounts([]int{1, 2, 3, 1, 2})
	if want := map[Pair]int{{1, 2}: 2, {2, 3}: 1, {3, 1}: 1}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("PairCounts = %v, want %v", got, want)
	}
	if got := Merge([]int{1, 2, 3, 1, 2}, Pair{1, 2}, 4); fmt.Sprint(got) != "[4 3 4]" {
		t.Errorf("Merge = %v, want [4 3 4]", got)
	}
	if got := Merge([]int{5, 5, 5}, Pair{5, 5}, 6); fmt.Sprint(got) != "[6 5]" {
		t.Errorf("Merge = %v, want [6 5]", got)
	}
}
