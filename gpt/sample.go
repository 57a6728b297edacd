package gpt

import (
	"cmp"
	"fmt"
	"html"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// Sampling: a Policy applied to one row of logits (V). The Sampler draws tokens; the helpers
// after it measure a distribution the way the study does: how many tokens hold 90% of the
// mass (NucleusSize), how much the top k hold (TopKMass), its entropy in bits (Entropy), and
// the ranked candidates (Ranked).

// Choice is one token picked by a Sampler.
type Choice struct {
	ID   int     // the token id
	Prob float64 // its probability in the distribution it was drawn from (after temperature, top-k and top-p); 1 for argmax
	Kept int     // how many tokens that distribution had left; 1 for argmax
}

// Sampler applies a Policy to logits, one call per generated token. It owns the seeded
// random generator, so two Samplers with the same Policy draw the same tokens from the same
// logits.
type Sampler struct {
	Policy Policy
	rng    *rand.Rand
	probs  []float64 // (V) scratch: the softmax at the policy's temperature
	order  []int     // (V) scratch: token ids, most probable first
	scan   logitScan // scratch: Sample's pass over the logits
}

// NewSampler checks the policy and seeds its generator.
func NewSampler(p Policy) (*Sampler, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Sampler{Policy: p, rng: NewRand(p.Seed)}, nil
}

// NewRand returns the random stream a Sampler with Policy.Seed = seed draws from, so that a
// sampler written in a notebook can be checked token for token against this one. A Sampler
// takes one Float64 from it per sampled token (none at temperature 0), u = Float64()·mass
// over the kept tokens, and picks the first token, most probable first (ties: lower id), at
// which the running sum of the kept probabilities exceeds u; with neither top-k nor top-p
// it runs over the whole vocabulary in id order instead.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x5851f42d4c957f2d))
}

// Sample picks the next token from logits (V). NaN or infinite logits are an error naming
// the first bad index.
func (s *Sampler) Sample(logits []float32) (Choice, error) {
	if err := s.scan.of("sample", logits); err != nil {
		return Choice{}, err
	}
	return s.pick(logits, &s.scan), nil
}

// pick is Sample on logits that scan has read (and found finite).
func (s *Sampler) pick(logits []float32, scan *logitScan) Choice {
	p := s.Policy
	if p.Temperature == 0 {
		return Choice{ID: scan.argmax, Prob: 1, Kept: 1}
	}
	V := len(logits)
	s.probs = softmaxT(s.probs, logits, p.Temperature)
	probs := s.probs

	// No filter: draw over the whole vocabulary in id order, no sorting needed.
	if (p.TopK == 0 || p.TopK >= V) && (p.TopP == 0 || p.TopP == 1) {
		return draw(s.rng, probs, nil, V)
	}
	// Top-k: the k most probable tokens, most probable first.
	k := V
	if p.TopK > 0 && p.TopK < V {
		k = p.TopK
	}
	s.order = scan.top(s.order, logits, k)
	kept := s.order
	// Top-p: the smallest prefix of those whose renormalised mass reaches p.
	if p.TopP > 0 && p.TopP < 1 {
		mass := 0.0
		for _, id := range kept {
			mass += probs[id]
		}
		cum := 0.0
		for i, id := range kept {
			cum += probs[id]
			if cum >= p.TopP*mass {
				kept = kept[:i+1]
				break
			}
		}
	}
	return draw(s.rng, probs, kept, len(kept))
}

// draw picks one id with probability proportional to probs[id], over the ids in kept (or
// over every id when kept is nil), and reports its renormalised probability.
func draw(rng *rand.Rand, probs []float64, kept []int, n int) Choice {
	id := func(i int) int {
		if kept == nil {
			return i
		}
		return kept[i]
	}
	mass := 0.0
	for i := 0; i < n; i++ {
		mass += probs[id(i)]
	}
	u := rng.Float64() * mass
	cum, last := 0.0, id(0)
	for i := 0; i < n; i++ {
		q := probs[id(i)]
		if q == 0 {
			continue
		}
		last = id(i)
		cum += q
		if u < cum {
			break
		}
	}
	return Choice{ID: last, Prob: probs[last] / mass, Kept: n}
}

// checkLogits rejects empty rows and NaN or infinite logits, naming the first bad index.
func checkLogits(op string, logits []float32) error {
	if len(logits) == 0 {
		return fmt.Errorf("gpt: %s: no logits", op)
	}
	for i, l := range logits {
		if l-l != 0 { // 0 for every finite l; NaN for NaN and for ±Inf (a quick test of 50,257)
			return fmt.Errorf("gpt: %s: logits[%d] is %v, want a finite number", op, i, l)
		}
	}
	return nil
}

func checkTemperature(op string, T float64) error {
	if math.IsNaN(T) || math.IsInf(T, 0) || T < 0 {
		return fmt.Errorf("gpt: %s: temperature %v, want a finite number ≥ 0 (0 = argmax)", op, T)
	}
	return nil
}

// argmax is the id of the highest logit; ties go to the lowest id.
func argmax(logits []float32) int {
	best := 0
	for i, l := range logits {
		if l > logits[best] {
			best = i
		}
	}
	return best
}

// softmaxT writes softmax(logits/T) into dst (reused if long enough), in float64:
// exp((l - max)/T) / Σ. T must be > 0.
func softmaxT(dst []float64, logits []float32, T float64) []float64 {
	dst = slices.Grow(dst[:0], len(logits))[:len(logits)]
	maxL := float64(logits[argmax(logits)])
	sum := 0.0
	for i, l := range logits {
		dst[i] = math.Exp((float64(l) - maxL) / T)
		sum += dst[i]
	}
	for i := range dst {
		dst[i] /= sum
	}
	return dst
}

// softmaxSum returns the softmax denominator Σ exp(l − mx) over logits, mx the largest
// of them, so that token i has probability exp(l[i] − mx)/sum at temperature 1. It is the
// cheap way to a few probabilities out of a whole vocabulary: the exponentials run eight
// at a time in float32 (fast.SumExp, which leaves the logits as they are), summed in
// float64 a thousand at a time; terms below e^-87 count as e^-87, which no sum ≥ 1 can
// notice. A Generator's step runs it split over the cores (logitScan.softmaxSum), with the
// same result.
func softmaxSum(logits []float32, mx float32) (sum float64) {
	for lo := 0; lo < len(logits); lo += expChunk {
		sum += float64(fast.SumExp(logits[lo:min(lo+expChunk, len(logits))], mx))
	}
	return sum
}

// expChunk is how many exponentials softmaxSum sums in float32 before adding to its float64.
const expChunk = 1024

// probsAt is the distribution at temperature T, where T = 0 puts all the mass on the argmax.
func probsAt(logits []float32, T float64) []float64 {
	if T == 0 {
		p := make([]float64, len(logits))
		p[argmax(logits)] = 1
		return p
	}
	return softmaxT(nil, logits, T)
}

// rankByLogit writes into dst (reused if long enough) the ids of the k highest logits,
// highest first, ties to the lower id. Ranking by logit is ranking by probability at any
// temperature, without the ties that underflow to probability 0 would make.
func rankByLogit(dst []int, logits []float32, k int) []int {
	V := len(logits)
	k = min(k, V)
	if k <= 0 {
		return dst[:0]
	}
	better := func(a, b int) int { return ranksBefore(logits, a, b) }
	if k*16 >= V { // a large share of the vocabulary: sort everything
		dst = slices.Grow(dst[:0], V)[:V]
		for i := range dst {
			dst[i] = i
		}
		slices.SortFunc(dst, better)
		return dst[:k]
	}
	h := keepBest(dst[:0], logits, k, 0, V)
	slices.SortFunc(h, better)
	return h
}

// keepBest passes the ids lo…hi-1, in order, through h, a heap of at most k ids whose root
// ranks after the rest (written out rather than with container/heap, whose interface would
// cost an allocation a call): h ends up holding the best k of the ids it held and those
// passed, in heap order.
func keepBest(h []int, logits []float32, k, lo, hi int) []int {
	for id := lo; id < hi; id++ {
		switch {
		case len(h) < k:
			h = append(h, id)
			for i := len(h) - 1; i > 0 && ranksBefore(logits, h[(i-1)/2], h[i]) < 0; i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i] // up while the parent ranks before it
			}
		case logits[id] >= logits[h[0]] && ranksBefore(logits, id, h[0]) < 0: // most fail the first test
			h[0] = id
			siftWorstFirst(h, logits)
		}
	}
	return h
}

// ranksBefore is negative when token a ranks before token b: a higher logit, or the same
// and a lower id.
func ranksBefore(logits []float32, a, b int) int {
	if c := cmp.Compare(logits[b], logits[a]); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// siftWorstFirst moves the root of the heap h down until every parent ranks after its
// children: the root is then the worst of h.
func siftWorstFirst(h []int, logits []float32) {
	for i := 0; ; {
		worst, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && ranksBefore(logits, h[worst], h[l]) < 0 {
			worst = l
		}
		if r < len(h) && ranksBefore(logits, h[worst], h[r]) < 0 {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// # One pass over the logits
//
// A Generator's step reads its row of logits (50,257 for GPT-2) for four things: that every
// logit is finite, the argmax, the softmax's denominator and the TopN candidates. Done one
// at a time (checkLogits, argmax, softmaxSum with its own argmax, rankByLogit), that was six
// passes and 0.16 ms of every step, 0.03 ms now (docs/performance.md, A14). A logitScan
// reads the row once, for the largest logit of each block of 64 and whether all are finite
// (fast.BlockMax); then the argmax is the first maximal logit of the first block whose
// largest is the row's, and the k best tokens lie in the blocks whose largest is at least
// the k-th largest of the blocks' (k blocks hold a logit that high, so the k-th best logit
// is at least that): a few hundred logits to rank instead of the row. The softmax's
// denominator is one more pass (softmaxSum), that no longer copies the row and runs on both
// cores. The answers
// are the readable passes', token for token, ties to the lower id
// (TestLogitScanMatchesPasses); with useFast off they are those passes.

// logitScan is a row of logits read once: its argmax, and its blocks' largest logits.
type logitScan struct {
	blockMax []float32 // (⌈V/fast.MaxBlock⌉) the largest logit of each block; empty when !useFast
	argmax   int       // the id of the highest logit; ties go to the lowest id
	blocks   []int     // scratch: the blocks with the k highest maxima
	sums     []float32 // scratch: softmaxSum's chunks' sums
}

// of reads logits into s, returning checkLogits's error (op names the operation) if one
// of them is not finite.
func (s *logitScan) of(op string, logits []float32) error {
	if !useFast || len(logits) == 0 {
		s.blockMax = s.blockMax[:0]
		if err := checkLogits(op, logits); err != nil {
			return err
		}
		s.argmax = argmax(logits)
		return nil
	}
	nb := (len(logits) + fast.MaxBlock - 1) / fast.MaxBlock
	s.blockMax = slices.Grow(s.blockMax[:0], nb)[:nb]
	if !fast.BlockMax(s.blockMax, logits) {
		if err := checkLogits(op, logits); err != nil {
			return err // it names the first bad index
		}
	}
	b := argmax(s.blockMax)
	i := b * fast.MaxBlock
	for logits[i] != s.blockMax[b] {
		i++
	}
	s.argmax = i
	return nil
}

// softmaxSum is softmaxSum(logits, max) for the logits s has read, bit for bit, with the
// chunks' float32 sums split over the cores: each chunk's sum is the same wherever it runs,
// and they are added in float64 in the same order.
func (s *logitScan) softmaxSum(logits []float32) (sum float64) {
	n := (len(logits) + expChunk - 1) / expChunk
	s.sums = slices.Grow(s.sums[:0], n)[:n]
	parallelRegion(&chunkExpRegion, n, 8, chunkExpArgs{s.sums, logits, logits[s.argmax]})
	for _, c := range s.sums {
		sum += float64(c)
	}
	return sum
}

// chunkExpArgs are logitScan.softmaxSum's operands; chunkExpRegion sums chunks lo…hi-1.
type chunkExpArgs struct {
	sums, logits []float32
	mx           float32
}

var chunkExpRegion = fast.Region[chunkExpArgs]{Body: func(a *chunkExpArgs, lo, hi int) {
	for c := lo; c < hi; c++ {
		a.sums[c] = fast.SumExp(a.logits[c*expChunk:min((c+1)*expChunk, len(a.logits))], a.mx)
	}
}}

// top is rankByLogit(dst, logits, k) for the logits s has read, ranking only the blocks
// that can hold the k best: when k is at most a quarter of the blocks, the ones whose
// largest logit is at least the k-th largest block's.
func (s *logitScan) top(dst []int, logits []float32, k int) []int {
	if k <= 0 || 4*k > len(s.blockMax) {
		return rankByLogit(dst, logits, k)
	}
	s.blocks = rankByLogit(s.blocks, s.blockMax, k)
	floor := s.blockMax[s.blocks[k-1]]
	h := dst[:0]
	for b, m := range s.blockMax {
		if m >= floor {
			h = keepBest(h, logits, k, b*fast.MaxBlock, min((b+1)*fast.MaxBlock, len(logits)))
		}
	}
	slices.SortFunc(h, func(a, b int) int { return ranksBefore(logits, a, b) })
	return h
}

// NucleusSize is how many of the most probable tokens it takes to hold at least p of the
// mass at temperature T: the size of the top-p set. At T = 0 it is 1. The study: 1,504
// tokens hold 90% after "The capital of France is" at T = 1, 3 after "import numpy as".
func NucleusSize(logits []float32, T, p float64) (int, error) {
	if err := checkDistribution("nucleus size", logits, T); err != nil {
		return 0, err
	}
	if math.IsNaN(p) || p <= 0 || p > 1 {
		return 0, fmt.Errorf("gpt: nucleus size: top-p %v, want in (0, 1]", p)
	}
	if T == 0 {
		return 1, nil
	}
	probs := softmaxT(nil, logits, T)
	order := rankByLogit(nil, logits, len(logits))
	cum := 0.0
	for i, id := range order {
		cum += probs[id]
		if cum >= p {
			return i + 1, nil
		}
	}
	return len(order), nil // p = 1 and the sum rounded just below it
}

// TopKMass is the share of the mass at temperature T held by the k most probable tokens:
// what a top-k filter keeps before renormalising. The study: top-200 at T = 0.8 holds 89%
// after the capital prompt.
func TopKMass(logits []float32, T float64, k int) (float64, error) {
	if err := checkDistribution("top-k mass", logits, T); err != nil {
		return 0, err
	}
	if k < 0 {
		return 0, fmt.Errorf("gpt: top-k mass: top-k %d, want ≥ 0", k)
	}
	probs := probsAt(logits, T)
	mass := 0.0
	for _, id := range rankByLogit(nil, logits, k) {
		mass += probs[id]
	}
	return mass, nil
}

// Entropy is the entropy in bits of the distribution at temperature T: 0 for a certain
// choice, log2 V for a uniform one. The study: 8.7 bits after the capital prompt, 1.5 after
// "import numpy as".
func Entropy(logits []float32, T float64) (float64, error) {
	if err := checkDistribution("entropy", logits, T); err != nil {
		return 0, err
	}
	if T == 0 {
		return 0, nil
	}
	h := 0.0
	for _, q := range softmaxT(nil, logits, T) {
		if q > 0 {
			h -= q * math.Log2(q)
		}
	}
	return h, nil
}

func checkDistribution(op string, logits []float32, T float64) error {
	if err := checkTemperature(op, T); err != nil {
		return err
	}
	return checkLogits(op, logits)
}

// Candidate is one token of a ranked distribution.
type Candidate struct {
	Rank  int     // 1 for the most probable
	ID    int     // token id
	Logit float32 // its raw logit
	Prob  float64 // its probability at the temperature asked for
}

// Candidates is a ranked list, most probable first. It renders as a table.
type Candidates []Candidate

// Ranked lists the n most probable tokens at temperature T, most probable first (ties to
// the lower id). At T = 0 the first has probability 1 and the rest 0.
func Ranked(logits []float32, T float64, n int) (Candidates, error) {
	if err := checkDistribution("ranked", logits, T); err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("gpt: ranked: n %d, want ≥ 0", n)
	}
	probs := probsAt(logits, T)
	var cs Candidates
	for i, id := range rankByLogit(nil, logits, n) {
		cs = append(cs, Candidate{Rank: i + 1, ID: id, Logit: logits[id], Prob: probs[id]})
	}
	return cs, nil
}

// HTML renders the candidates as a table of rank, id, logit and probability.
func (cs Candidates) HTML() string { return cs.table(nil) }

// HTMLWith renders the candidates with each token's text from d.
func (cs Candidates) HTMLWith(d Decoder) string { return cs.table(d) }

func (cs Candidates) table(d Decoder) string {
	var b strings.Builder
	b.WriteString("<table><tr><th>rank</th><th>id</th>")
	if d != nil {
		b.WriteString("<th>token</th>")
	}
	b.WriteString("<th>logit</th><th>probability</th></tr>")
	for _, c := range cs {
		fmt.Fprintf(&b, "<tr><td>%d</td><td>%d</td>", c.Rank, c.ID)
		if d != nil {
			b.WriteString("<td>" + quotedHTML(d, c.ID) + "</td>")
		}
		fmt.Fprintf(&b, "<td>%.3f</td><td>%.2f%%</td></tr>", c.Logit, 100*c.Prob)
	}
	b.WriteString("</table>")
	return b.String()
}

func (cs Candidates) String() string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%d. id %d logit %.3f p %.2f%%\n", c.Rank, c.ID, c.Logit, 100*c.Prob)
	}
	return b.String()
}

// Decoder turns token ids back into text; a tokenizer is one.
type Decoder interface {
	Decode(ids []int) string
}

// quotedHTML is the text of ids, quoted as Go quotes a string and escaped for HTML, so that
// spaces, tabs and newlines show: <code>"\tif"</code>. Every table of tokens uses it.
func quotedHTML(d Decoder, ids ...int) string {
	return "<code>" + html.EscapeString(fmt.Sprintf("%q", d.Decode(ids))) + "</code>"
}
