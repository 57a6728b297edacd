package gpt

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomLogits is a row of V logits from N(0, scale²), fixed by seed.
func randomLogits(seed uint64, V int, scale float64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 1))
	l := make([]float32, V)
	for i := range l {
		l[i] = float32(rng.NormFloat64() * scale)
	}
	return l
}

func TestPolicyString(t *testing.T) {
	for _, c := range []struct {
		p    Policy
		want string
	}{
		{Policy{}, "temperature 0 (argmax), top-k off, top-p off, seed 0"},
		{NanoGPT, "temperature 0.8, top-k 200, top-p off, seed 1337"},
		{Policy{Temperature: 1, TopP: 0.9, Seed: 7}, "temperature 1, top-k off, top-p 0.9, seed 7"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
	}
}

// Invalid settings are errors that name the setting.
func TestPolicyInvalid(t *testing.T) {
	for _, c := range []struct {
		p    Policy
		name string
	}{
		{Policy{Temperature: -1}, "temperature"},
		{Policy{Temperature: math.NaN()}, "temperature"},
		{Policy{Temperature: math.Inf(1)}, "temperature"},
		{Policy{Temperature: 1, TopK: -3}, "top-k"},
		{Policy{Temperature: 1, TopP: 1.5}, "top-p"},
		{Policy{Temperature: 1, TopP: -0.1}, "top-p"},
		{Policy{Temperature: 1, TopP: math.NaN()}, "top-p"},
	} {
		_, err := NewSampler(c.p)
		if err == nil || !strings.Contains(err.Error(), c.name) || !strings.HasPrefix(err.Error(), "gpt: ") {
			t.Errorf("NewSampler(%+v) error = %v, want one naming %q", c.p, err, c.name)
		}
	}
	s, err := NewSampler(Policy{Temperature: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		l := randomLogits(1, 50, 1)
		l[17] = bad
		_, err := s.Sample(l)
		if err == nil || !strings.Contains(err.Error(), "logits[17]") {
			t.Errorf("Sample with logits[17] = %v: error %v, want one naming logits[17]", bad, err)
		}
		if _, err := Entropy(l, 1); err == nil || !strings.Contains(err.Error(), "logits[17]") {
			t.Errorf("Entropy with logits[17] = %v: error %v", bad, err)
		}
	}
	if _, err := NucleusSize(randomLogits(1, 50, 1), 1, 0); err == nil || !strings.Contains(err.Error(), "top-p") {
		t.Errorf("NucleusSize(p = 0) error = %v, want one naming top-p", err)
	}
	if _, err := TopKMass(randomLogits(1, 50, 1), -1, 5); err == nil || !strings.Contains(err.Error(), "temperature") {
		t.Errorf("TopKMass(T = -1) error = %v, want one naming the temperature", err)
	}
}

// Temperature 0 is argmax: no NaN, ties to the lowest id, whatever the seed.
func TestTemperatureZeroIsArgmax(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		l := randomLogits(seed, 1000, 3)
		want := 0
		for i := range l {
			if l[i] > l[want] {
				want = i
			}
		}
		s, _ := NewSampler(Policy{Temperature: 0, Seed: seed, TopK: 5, TopP: 0.5})
		c, err := s.Sample(l)
		if err != nil {
			t.Fatal(err)
		}
		if c.ID != want || c.Prob != 1 || c.Kept != 1 {
			t.Errorf("seed %d: Sample at T=0 = %+v, want id %d with probability 1", seed, c, want)
		}
	}
	tie := []float32{1, 5, 5, 2}
	if got := argmax(tie); got != 1 {
		t.Errorf("argmax(%v) = %d, want 1 (ties to the lowest id)", tie, got)
	}
}

// The same seed draws the same tokens; a different seed draws others.
func TestSamplerRepeatable(t *testing.T) {
	rows := make([][]float32, 40)
	for i := range rows {
		rows[i] = randomLogits(uint64(i), 5000, 2)
	}
	run := func(p Policy) []int {
		s, err := NewSampler(p)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int
		for _, l := range rows {
			c, err := s.Sample(l)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, c.ID)
		}
		return ids
	}
	for _, p := range []Policy{{Temperature: 1, Seed: 42}, {Temperature: 0.8, TopK: 200, Seed: 42}, {Temperature: 1.2, TopP: 0.9, Seed: 42}} {
		a, b := run(p), run(p)
		if !slices.Equal(a, b) {
			t.Errorf("%v: two runs differ:\n%v\n%v", p, a, b)
		}
		p.Seed++
		if c := run(p); slices.Equal(a, c) {
			t.Errorf("%v: seeds %d and %d drew the same 40 tokens", p, p.Seed-1, p.Seed)
		}
	}
}

// Top-k and top-p keep exactly the tokens they should: draws never leave the set, and the
// frequencies follow the renormalised probabilities.
func TestTopKTopP(t *testing.T) {
	// Probabilities 0.4, 0.3, 0.2, 0.1 at T = 1, in a shuffled order of ids.
	logits := []float32{float32(math.Log(0.2)), float32(math.Log(0.4)), float32(math.Log(0.1)), float32(math.Log(0.3))}
	for _, c := range []struct {
		p    Policy
		want map[int]float64 // id → renormalised probability
	}{
		{Policy{Temperature: 1, TopK: 2}, map[int]float64{1: 4.0 / 7, 3: 3.0 / 7}},
		{Policy{Temperature: 1, TopP: 0.65}, map[int]float64{1: 0.4 / 0.7, 3: 0.3 / 0.7}},
		{Policy{Temperature: 1, TopP: 0.69}, map[int]float64{1: 0.4 / 0.7, 3: 0.3 / 0.7}},
		{Policy{Temperature: 1, TopP: 0.71}, map[int]float64{1: 0.4 / 0.9, 3: 0.3 / 0.9, 0: 0.2 / 0.9}},
		{Policy{Temperature: 1, TopK: 3, TopP: 0.5}, map[int]float64{1: 0.4 / 0.9 / (0.7 / 0.9), 3: 0.3 / 0.7}},
		{Policy{Temperature: 1}, map[int]float64{1: 0.4, 3: 0.3, 0: 0.2, 2: 0.1}},
	} {
		c.p.Seed = 3
		s, _ := NewSampler(c.p)
		const n = 20000
		count := map[int]int{}
		for i := 0; i < n; i++ {
			ch, err := s.Sample(logits)
			if err != nil {
				t.Fatal(err)
			}
			want, ok := c.want[ch.ID]
			if !ok {
				t.Fatalf("%v: drew id %d, outside the kept set %v", c.p, ch.ID, c.want)
			}
			if ch.Kept != len(c.want) || math.Abs(ch.Prob-want) > 1e-6 {
				t.Fatalf("%v: choice %+v, want probability %.4f among %d", c.p, ch, want, len(c.want))
			}
			count[ch.ID]++
		}
		for id, want := range c.want {
			if got := float64(count[id]) / n; math.Abs(got-want) > 0.015 {
				t.Errorf("%v: id %d drawn %.3f of the time, want %.3f", c.p, id, got, want)
			}
		}
	}
}

func TestDistributionHelpers(t *testing.T) {
	// Uniform over 8: entropy 3 bits, half the mass needs 4 tokens, top-2 holds 1/4.
	u := make([]float32, 8)
	if h, _ := Entropy(u, 1); math.Abs(h-3) > 1e-12 {
		t.Errorf("entropy of uniform(8) = %v bits, want 3", h)
	}
	if n, _ := NucleusSize(u, 1, 0.5); n != 4 {
		t.Errorf("nucleus size of uniform(8) at p=0.5 = %d, want 4", n)
	}
	if m, _ := TopKMass(u, 2.5, 2); math.Abs(m-0.25) > 1e-12 {
		t.Errorf("top-2 mass of uniform(8) = %v, want 0.25", m)
	}
	// 0.4, 0.3, 0.2, 0.1.
	l := []float32{float32(math.Log(0.2)), float32(math.Log(0.4)), float32(math.Log(0.1)), float32(math.Log(0.3))}
	wantH := -(0.4*math.Log2(0.4) + 0.3*math.Log2(0.3) + 0.2*math.Log2(0.2) + 0.1*math.Log2(0.1))
	if h, _ := Entropy(l, 1); math.Abs(h-wantH) > 1e-6 {
		t.Errorf("entropy = %v, want %v", h, wantH)
	}
	for _, c := range []struct {
		p    float64
		want int
	}{{0.39, 1}, {0.5, 2}, {0.85, 3}, {0.95, 4}, {1, 4}} {
		if n, _ := NucleusSize(l, 1, c.p); n != c.want {
			t.Errorf("nucleus size at p=%v = %d, want %d", c.p, n, c.want)
		}
	}
	if m, _ := TopKMass(l, 1, 3); math.Abs(m-0.9) > 1e-6 {
		t.Errorf("top-3 mass = %v, want 0.9", m)
	}
	// Temperature 0: a certain choice.
	if h, _ := Entropy(l, 0); h != 0 {
		t.Errorf("entropy at T=0 = %v, want 0", h)
	}
	if n, _ := NucleusSize(l, 0, 0.9); n != 1 {
		t.Errorf("nucleus size at T=0 = %d, want 1", n)
	}
	if m, _ := TopKMass(l, 0, 1); m != 1 {
		t.Errorf("top-1 mass at T=0 = %v, want 1", m)
	}
	// Higher temperature flattens: entropy and nucleus grow.
	big := randomLogits(5, 50257, 2)
	prevH, prevN := -1.0, 0
	for _, T := range []float64{0.5, 0.8, 1, 1.5, 2} {
		h, _ := Entropy(big, T)
		n, _ := NucleusSize(big, T, 0.9)
		if h <= prevH || n <= prevN {
			t.Errorf("T=%v: entropy %.3f, nucleus %d; want both above T's predecessor (%.3f, %d)", T, h, n, prevH, prevN)
		}
		prevH, prevN = h, n
	}
	r, _ := Ranked(l, 1, 3)
	want := []int{1, 3, 0}
	for i, c := range r {
		if c.ID != want[i] || c.Rank != i+1 {
			t.Errorf("Ranked[%d] = %+v, want id %d rank %d", i, c, want[i], i+1)
		}
	}
	if math.Abs(r[0].Prob-0.4) > 1e-6 {
		t.Errorf("Ranked[0].Prob = %v, want 0.4", r[0].Prob)
	}
	if !strings.Contains(r.HTML(), "<td>40.00%</td>") {
		t.Errorf("Ranked HTML lacks the 40%% row:\n%s", r.HTML())
	}
}

// The heap path of rankByLogit agrees with sorting everything.
func TestRankByLogit(t *testing.T) {
	l := randomLogits(9, 10000, 1)
	l[10], l[20] = 5, 5 // a tie
	all := rankByLogit(nil, l, len(l))
	for _, k := range []int{1, 2, 50, 200, 700} {
		got := rankByLogit(nil, l, k)
		if !slices.Equal(got, all[:k]) {
			t.Errorf("top %d by heap = %v…, want %v…", k, got[:min(k, 5)], all[:min(k, 5)])
		}
	}
	if all[0] != 10 || all[1] != 20 {
		t.Errorf("tie at the top ranked %d, %d; want 10, 20", all[0], all[1])
	}
}

// A logitScan finds what the readable passes find, token for token: the argmax, the
// softmax's denominator bit for bit, the top k for every k (ties to the lower id, the tie at
// the top split across blocks or not), and the same error naming the first bad logit; over
// rows that fill their last block and rows that do not, rows with many ties and zeros of
// both signs, the maximum in the last block.
func TestLogitScanMatchesPasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	var s logitScan
	var got []int
	for _, V := range []int{1, 7, 64, 65, 200, 1000, 4096, 50257} {
		for trial := range 6 {
			logits := randomSlice(rng, V, 3)
			switch trial {
			case 1: // coarse: many ties, at the top too
				for i := range logits {
					logits[i] = float32(math.Round(float64(logits[i])))
				}
			case 2: // zeros of both signs are the largest
				for i := range logits {
					logits[i] = -float32(math.Abs(float64(logits[i])))
					if rng.IntN(50) == 0 {
						logits[i] = float32(math.Copysign(0, float64(rng.IntN(2)-1)))
					}
				}
			case 3: // the maximum in the last block, and a tie with the first
				logits[V-1], logits[0] = 20, 20
			case 4: // all equal
				for i := range logits {
					logits[i] = 1.5
				}
			case 5: // the top spread over blocks: a tie in every block
				for i := 0; i < V; i += 61 {
					logits[i] = 9
				}
			}
			if err := s.of("scan", logits); err != nil {
				t.Fatalf("V=%d trial %d: %v", V, trial, err)
			}
			if want := argmax(logits); s.argmax != want {
				t.Errorf("V=%d trial %d: argmax %d, want %d", V, trial, s.argmax, want)
			}
			if got, want := s.softmaxSum(logits), softmaxSum(logits, logits[argmax(logits)]); got != want {
				t.Errorf("V=%d trial %d: softmax denominator %v, want %v", V, trial, got, want)
			}
			all := rankByLogit(nil, logits, V)
			for _, k := range []int{0, 1, 2, 5, 13, 50, 200, V} {
				got = s.top(got, logits, k)
				if want := all[:min(k, V)]; !slices.Equal(got, want) {
					t.Errorf("V=%d trial %d: top %d = %v…, want %v…", V, trial, k, got[:min(len(got), 8)], want[:min(k, V, 8)])
				}
			}
		}
		for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(-1))} {
			for _, at := range []int{V - 1, V / 2, 0} {
				logits := randomSlice(rng, V, 3)
				logits[at] = bad
				if at > 0 {
					logits[V-1] = float32(math.Inf(1)) // a later bad logit: the first is named
				}
				err, want := s.of("scan", logits), checkLogits("scan", logits)
				if err == nil || err.Error() != want.Error() {
					t.Errorf("V=%d: %v at %d: error %v, want %v", V, bad, at, err, want)
				}
			}
		}
	}
}

// softmaxSum gives the same probabilities as the float64 softmax.
func TestSoftmaxSumMatchesSoftmax(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, V := range []int{1, 7, 1000, 50257} {
		logits := randomSlice(rng, V, 4)
		logits[V/2] = -200 // far below the rest: underflows in float32
		want := softmaxT(nil, logits, 1)
		mx := logits[argmax(logits)]
		sum := softmaxSum(logits, mx)
		for i := range logits {
			got := math.Exp(float64(logits[i])-float64(mx)) / sum
			// Float32 sums of 1,024 exponentials each: a few ulps of float32 over a chunk.
			// (The pure-Go ExpSum, GPTNOTES_CPU=go with -tags noasm, reached 1.0e-6.)
			if d := math.Abs(got - want[i]); d > 1e-5*want[i]+1e-30 {
				t.Fatalf("V=%d token %d: p %g, softmax %g", V, i, got, want[i])
			}
		}
	}
}

// wordDecoder decodes id i to words[i], joined: a tokenizer small enough to read.
type wordDecoder []string

func (w wordDecoder) Decode(ids []int) string {
	var s string
	for _, id := range ids {
		s += w[id]
	}
	return s
}

// Token text in every HTML table is quoted and escaped the same way, so a tab, a newline
// and a "<" show as what they are.
func TestTokenTextInHTML(t *testing.T) {
	d := wordDecoder{"\tif", " x<y", "\n"}
	want := "<code>&#34;\\tif x&lt;y&#34;</code>"
	if got := quotedHTML(d, 0, 1); got != want {
		t.Errorf("quotedHTML = %s, want %s", got, want)
	}
	cs := Candidates{{Rank: 1, ID: 2, Logit: 1, Prob: 0.5}}
	if got, cell := cs.HTMLWith(d), "<td><code>&#34;\\n&#34;</code></td>"; !strings.Contains(got, cell) {
		t.Errorf("Candidates.HTMLWith has no %s:\n%s", cell, got)
	}
	if got := tokenCell(d, 1); got != "<code>&#34; x&lt;y&#34;</code>" {
		t.Errorf("tokenCell = %s", got)
	}
	if got := tokenCell(nil, 1); got != "1" {
		t.Errorf("tokenCell without a decoder = %s, want the id", got)
	}
}
