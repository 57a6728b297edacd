package check

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/gptnotes/gptnotes/tokenizer"
)

// BPETrain checks a student's BPE trainer against tokenizer.Train, merge for merge. f(text,
// n) learns n merges from text the way Train does with its defaults (GPT-2's pre-split, no
// special tokens): split text into chunks with tokenizer.Split, start each chunk from its
// bytes, then n times count the pairs inside the chunks, merge the most frequent pair in
// every chunk into the next id (256 for the first) and record the rule. Of pairs that
// occur equally often, Train merges the one with the smaller Left id, then the smaller
// Right id. The cases: "aaabdaaabac" (minbpe's known answer), a text of ties, a text
// whose most frequent pairs straddle chunk edges, and 50 merges on 3 KB of Go source.
//
//	v := check.BPETrain(func(text string, n int) []tokenizer.MergeRule { … })
func BPETrain(f func(text string, merges int) []tokenizer.MergeRule) *Verdict {
	const op = "your BPE trainer"
	cases, err := bpeCases()
	if err != nil {
		return failed(op, err)
	}
	for _, c := range cases {
		v := &Verdict{Op: op, Case: fmt.Sprintf("%d merges of %s", c.merges, c.name), Exact: true, Ref: "tokenizer.Train's"}
		var steps []tokenizer.TrainStep
		if _, err := tokenizer.Train(c.text, 256+c.merges, tokenizer.TrainOptions{
			Progress: func(s tokenizer.TrainStep) { steps = append(steps, s) },
		}); err != nil {
			return failed(op, err)
		}
		var yours []tokenizer.MergeRule
		if msg := call(func() { yours = f(c.text, c.merges) }); msg != "" {
			v.Problem = "your function panicked: " + msg
			return v
		}
		k := firstDiff(yours, steps)
		if k < 0 {
			continue
		}
		v.Problem = bpeProblem(c.text, yours, steps, k)
		v.Mistake = bpeMistake(c.text, c.merges, yours, k)
		return v
	}
	last := cases[len(cases)-1]
	return &Verdict{Op: op, OK: true, Exact: true, Ref: "tokenizer.Train's",
		Case: fmt.Sprintf("%d merges of %s, and the %d cases before it", last.merges, last.name, len(cases)-1)}
}

// bpeCase is a text a trainer is checked on and the merges asked for.
type bpeCase struct {
	name   string
	text   string
	merges int
}

// bpeCases are the texts, smallest first, so a mistake is shown on the smallest text
// that reveals it.
func bpeCases() ([]bpeCase, error) {
	src := filepath.Join(runtime.GOROOT(), "src", "unicode", "utf8", "utf8.go")
	b, err := os.ReadFile(src)
	if err != nil {
		return nil, fmt.Errorf("check: the BPE trainer's case needs Go's source: %w", err)
	}
	b = b[:min(len(b), 3000)]
	return []bpeCase{
		{`"aaabdaaabac"`, "aaabdaaabac", 3},
		// Every pair occurs once: only the tie-break picks the first merge.
		{`"zy ab"`, "zy ab", 2},
		// Inside the chunks ("a" "." "a" "." "a" "." " b") only (" " "b") is a pair; across
		// their edges ("a" ".") occurs three times.
		{`"a.a.a. b"`, "a.a.a. b", 1},
		{fmt.Sprintf("the first %d bytes of Go's unicode/utf8/utf8.go", len(b)), string(b), 50},
	}, nil
}

// firstDiff is the index of the first rule where yours and Train's steps differ (a missing
// or extra rule counts), or -1 if they are the same.
func firstDiff(yours []tokenizer.MergeRule, steps []tokenizer.TrainStep) int {
	for k := 0; k < max(len(yours), len(steps)); k++ {
		if k >= len(yours) || k >= len(steps) || yours[k] != steps[k].Rule {
			return k
		}
	}
	return -1
}

// bpeProblem says where yours first differs from Train's merges.
func bpeProblem(text string, yours []tokenizer.MergeRule, steps []tokenizer.TrainStep, k int) string {
	switch {
	case len(yours) == 0:
		return fmt.Sprintf("tokenizer.Train learns %d merges, the first %s; you have none.", len(steps), stepText(steps[0]))
	case k >= len(steps):
		return fmt.Sprintf("tokenizer.Train learns %d merges; you have %d, the extra one %s.", len(steps), len(yours), ruleText(yours, k))
	case k >= len(yours):
		return fmt.Sprintf("tokenizer.Train learns %d merges; you have %d, and its next is %s.", len(steps), len(yours), stepText(steps[k]))
	}
	s := fmt.Sprintf("merge %d (rank %d) differs: tokenizer.Train's is %s; yours is %s", k+1, k, stepText(steps[k]), ruleText(yours, k))
	if n, ok := countBefore(text, k, tokenizer.Pair{Left: yours[k].Left, Right: yours[k].Right}); ok {
		s += fmt.Sprintf(", a pair that occurs %d times there", n)
	}
	switch {
	case k == 1:
		s += ". The merge before it is the same"
	case k > 1:
		s += fmt.Sprintf(". The %d merges before it are the same", k)
	}
	return s + "."
}

// stepText writes one of Train's merges: `(97 97) → 256 "aa", the pair occurring 4 times`.
func stepText(s tokenizer.TrainStep) string {
	return fmt.Sprintf("(%d %d) → %d %q, the pair occurring %d times", s.Rule.Left, s.Rule.Right, s.Rule.ID, s.Token, s.Count)
}

// ruleText writes the student's rule k, with its token's bytes when its ids make sense.
func ruleText(rules []tokenizer.MergeRule, k int) string {
	r := rules[k]
	s := fmt.Sprintf("(%d %d) → %d", r.Left, r.Right, r.ID)
	if b, ok := ruleBytes(rules[:k+1], r.ID); ok {
		s += fmt.Sprintf(" %q", b)
	}
	return s
}

// ruleBytes unfolds id through rules down to bytes; ok is false for an id no rule or byte
// explains.
func ruleBytes(rules []tokenizer.MergeRule, id int) ([]byte, bool) {
	if id >= 0 && id < 256 {
		return []byte{byte(id)}, true
	}
	for i := len(rules) - 1; i >= 0; i-- {
		if r := rules[i]; r.ID == id && r.Left != id && r.Right != id {
			l, ok1 := ruleBytes(rules[:i], r.Left)
			rb, ok2 := ruleBytes(rules[:i], r.Right)
			return append(l, rb...), ok1 && ok2
		}
	}
	return nil, false
}

// countBefore is how often pair occurs in the text after Train's first k merges, counted
// inside the chunks; ok is false if the pair is not in the counts.
func countBefore(text string, k int, pair tokenizer.Pair) (int, bool) {
	_, counts := bpeRight.train(text, k+1, k)
	n, ok := counts[pair]
	return n, ok
}

// bpeMistake names the known mistake whose merges yours equal, or returns "". k is the
// first merge where yours differs from Train's.
func bpeMistake(text string, merges int, yours []tokenizer.MergeRule, k int) string {
	for _, m := range bpeWrongWays {
		if got, _ := m.way.train(text, merges, -1); sameRules(got, yours) {
			return m.says
		}
	}
	// Ties: the same merges up to k, and at k another pair with the winner's count.
	right, counts := bpeRight.train(text, merges, k)
	if k < len(yours) && k < len(right) {
		mine := tokenizer.Pair{Left: yours[k].Left, Right: yours[k].Right}
		want := tokenizer.Pair{Left: right[k].Left, Right: right[k].Right}
		if mine != want && counts[mine] == counts[want] && counts[want] > 0 {
			return fmt.Sprintf("ties broken differently: (%d %d) and (%d %d) both occur %d times at merge %d, and tokenizer.Train "+
				"takes the pair with the smaller Left id, then the smaller Right id (never the first found, nor a map's order).",
				mine.Left, mine.Right, want.Left, want.Right, counts[want], k+1)
		}
	}
	return ""
}

func sameRules(a, b []tokenizer.MergeRule) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// bpeWay is one way, right or wrong, to train BPE; the zero value is Train's.
type bpeWay struct {
	acrossChunks bool // the text's bytes as one list: pairs straddling two chunks counted and merged
	overlapTwice bool // every overlapping occurrence merged: "aaa" with (a a) becomes two tokens
	idShift      int  // merge r makes token 256 + r + idShift
}

var bpeRight bpeWay

// bpeWrongWays are the mistakes a trainer is checked for (ties are recognised apart, since
// there is more than one wrong way to break them), with what each says.
var bpeWrongWays = []struct {
	says string
	way  bpeWay
}{
	{"pairs counted across chunk boundaries: the text's bytes taken as one list, so pairs that straddle two chunks " +
		"(a letter and the full stop after it) are counted and merged; count and merge inside each chunk of tokenizer.Split(text).",
		bpeWay{acrossChunks: true}},
	{"overlapping pairs merged twice: \"aaa\" holds the pair (a a) twice, but once the first two are merged the third a " +
		"has no partner; merge left to right and step past both ids, so \"aaa\" becomes [aa a], not [aa aa].",
		bpeWay{overlapTwice: true}},
	{"ranks off by one: merge r, counting from 0, makes token 256 + r (the first merge makes 256); yours makes 257 + r.",
		bpeWay{idShift: 1}},
	{"ranks off by one: merge r, counting from 0, makes token 256 + r (the first merge makes 256); yours makes 255 + r.",
		bpeWay{idShift: -1}},
}

// train learns merges from text the plain way (minbpe's loop, every count redone after each
// merge), and returns the rules and the pair counts before merge at (nil if at < 0).
func (w bpeWay) train(text string, merges, at int) ([]tokenizer.MergeRule, map[tokenizer.Pair]int) {
	chunks := tokenizer.Split(text)
	if w.acrossChunks {
		chunks = []string{text}
	}
	seen := map[string]int{} // distinct chunks, so a repeated chunk is counted by its weight
	var words [][]int
	var weight []int
	for _, c := range chunks {
		if i, ok := seen[c]; ok {
			weight[i]++
			continue
		}
		seen[c] = len(words)
		ids := make([]int, len(c))
		for i := range len(c) {
			ids[i] = int(c[i])
		}
		words, weight = append(words, ids), append(weight, 1)
	}
	var rules []tokenizer.MergeRule
	var countsAt map[tokenizer.Pair]int
	for r := 0; r < merges; r++ {
		counts := map[tokenizer.Pair]int{}
		for i, ids := range words {
			tokenizer.AddPairCounts(counts, ids, weight[i])
		}
		if r == at {
			countsAt = counts
		}
		best, n := tokenizer.Pair{}, 0
		for p, c := range counts {
			if c > n || c == n && (p.Left < best.Left || p.Left == best.Left && p.Right < best.Right) {
				best, n = p, c
			}
		}
		if n == 0 {
			break
		}
		id := 256 + r + w.idShift
		for i, ids := range words {
			if w.overlapTwice {
				words[i] = mergeOverlapping(ids, best, id)
			} else {
				words[i] = tokenizer.Merge(ids, best, id)
			}
		}
		rules = append(rules, tokenizer.MergeRule{Left: best.Left, Right: best.Right, ID: id})
	}
	return rules, countsAt
}

// mergeOverlapping is the wrong merge: every occurrence of pair becomes id, overlapping ones
// too, so [a a a] with (a a) gives [id id].
func mergeOverlapping(ids []int, pair tokenizer.Pair, id int) []int {
	at := func(i int) bool { return i+1 < len(ids) && ids[i] == pair.Left && ids[i+1] == pair.Right }
	var out []int
	for i := 0; i < len(ids); i++ {
		switch {
		case at(i) && at(i+1):
			out = append(out, id) // the next occurrence overlaps this one: it merges too
		case at(i):
			out = append(out, id)
			i++
		default:
			out = append(out, ids[i])
		}
	}
	return out
}
