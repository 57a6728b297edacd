package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
)

// Row is one line of the table, in llama-bench's terms: one model at one precision, one test.
// "pp512" processes a 512-token prompt in one cached forward (the logits of its last position
// only); "tg128" generates 128 tokens one cached step at a time from an empty cache.
type Row struct {
	Model        string    `json:"model"`        // e.g. "small (random init)"
	Precision    string    `json:"precision"`    // "fp32" or "bf16"
	Params       int       `json:"params"`       // e.g. 124439808 (tied)
	WeightBytes  int       `json:"weight_bytes"` // Params × 4 or × 2
	Test         string    `json:"test"`         // e.g. "pp512", "tg128"
	Tokens       int       `json:"tokens"`
	RunSeconds   []float64 `json:"run_seconds"`     // each repetition
	TokensPerSec float64   `json:"tokens_per_s"`    // Tokens/s, the mean over the repetitions
	SD           float64   `json:"tokens_per_s_sd"` // its standard deviation
	Roof
}

// The sizes of a step, in FLOPs and bytes. P is the tied parameter count; each weight is
// read once a forward, so its bytes are a lower bound on what the forward moves.

// promptCost is a forward over a T-token prompt with an empty cache, the last position's
// logits only: the blocks' products (12·C² multiply-adds a position a layer), causal
// attention (q·k and the weighted sum of v, over t+1 keys at position t), and one row of the
// output layer; it reads the weights once and writes the cache (2·L·T·C numbers).
func promptCost(cfg gpt.Config, p gpt.Precision, T int) (flops, bytes float64) {
	C, L, V := float64(cfg.Channels), float64(cfg.Layers), float64(cfg.VocabSize)
	t := float64(T)
	flops = 2*t*L*12*C*C + L*2*C*t*(t+1) + 2*V*C
	bytes = float64(weightBytes(cfg, p)) + 2*L*t*C*elemBytes(p)
	return flops, bytes
}

// forwardCost is a forward over N positions with the logits of all of them (ForwardAll): the
// blocks' products, causal attention, and the output layer on every row; it reads the
// weights once and writes the N×V logits.
func forwardCost(cfg gpt.Config, p gpt.Precision, N int) (flops, bytes float64) {
	C, L, V := float64(cfg.Channels), float64(cfg.Layers), float64(cfg.VocabSize)
	t := float64(N)
	flops = 2*t*L*12*C*C + L*2*C*t*(t+1) + 2*t*V*C
	bytes = float64(weightBytes(cfg, p)) + 4*t*V
	return flops, bytes
}

// decodeCost is n cached steps from an empty cache: step s (context s+1) does one row of every
// product and attends over s+1 cached positions; it reads every weight and the cache so far.
func decodeCost(cfg gpt.Config, p gpt.Precision, n int) (flops, bytes float64) {
	C, L, V := float64(cfg.Channels), float64(cfg.Layers), float64(cfg.VocabSize)
	for s := 0; s < n; s++ {
		ctx := float64(s + 1)
		flops += 2*(L*12*C*C+V*C) + L*4*C*ctx
		bytes += float64(weightBytes(cfg, p)) + 2*L*ctx*C*elemBytes(p)
	}
	return flops, bytes
}

// weightBytes is the model's weights in precision p.
func weightBytes(cfg gpt.Config, p gpt.Precision) int {
	return gpt.Count(cfg).Tied * int(elemBytes(p))
}

// elemBytes is the size of one number in p: 4 in fp32, 2 in bf16 (weights and cache alike).
func elemBytes(p gpt.Precision) float64 {
	if p == gpt.BF16 {
		return 2
	}
	return 4
}

// measureModel times every test of pp and tg on m, reps times each after a warm-up forward
// of the longest prompt, or fewer once a test's runs have taken maxSeconds; sizes past the model's context are skipped. name labels the rows;
// a row is InLLC when the weights and the cache at its end fit in llc bytes. With forward,
// a row fwdN times a forward over the whole block, the logits of every position, reps times
// whatever they take (its figure is their median).
func measureModel(m *gpt.Model, name string, pp, tg []int, reps int, maxSeconds float64, llc int, forward bool) ([]Row, error) {
	cfg := m.Config
	rng := rand.New(rand.NewPCG(7, 7))
	ids := make([]int, cfg.BlockSize)
	for i := range ids {
		ids[i] = rng.IntN(cfg.VocabSize)
	}
	cache := m.NewCache()
	longest := 1
	for _, n := range pp {
		if n <= cfg.BlockSize {
			longest = max(longest, n)
		}
	}
	if _, err := m.ForwardCached(cache, ids[:longest]); err != nil { // sizes the buffers
		return nil, fmt.Errorf("bench: %s warm-up: %w", name, err)
	}
	var rows []Row
	add := func(test string, n int, flops, bytes float64, run func() error) error {
		r := Row{Model: name, Precision: m.Precision.String(), Params: gpt.Count(cfg).Tied,
			WeightBytes: weightBytes(cfg, m.Precision), Test: test, Tokens: n}
		everyRep := strings.HasPrefix(test, "fwd") // a median of reps, however long they take
		for k, spent := 0, 0.0; k < reps && (k == 0 || everyRep || spent < maxSeconds); k++ {
			cache.Reset()
			start := time.Now()
			if err := run(); err != nil {
				return fmt.Errorf("bench: %s %s %s: %w", name, r.Precision, test, err)
			}
			r.RunSeconds = append(r.RunSeconds, time.Since(start).Seconds())
			spent += r.RunSeconds[k]
		}
		r.TokensPerSec, r.SD = rateStats(n, r.RunSeconds)
		r.FLOPs, r.Bytes, r.Seconds = flops, bytes, mean(r.RunSeconds)
		kv := 2 * cfg.Layers * n * cfg.Channels * int(elemBytes(m.Precision))
		r.InLLC = llc > 0 && r.WeightBytes+kv <= llc
		rows = append(rows, r)
		return nil
	}
	for _, n := range pp {
		if n > cfg.BlockSize || n < 1 {
			continue
		}
		flops, bytes := promptCost(cfg, m.Precision, n)
		err := add(fmt.Sprintf("pp%d", n), n, flops, bytes, func() error {
			_, err := m.ForwardCached(cache, ids[:n])
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if forward {
		N := cfg.BlockSize
		flops, bytes := forwardCost(cfg, m.Precision, N)
		if _, err := m.ForwardAll([][]int{ids}); err != nil { // its buffers, once
			return nil, fmt.Errorf("bench: %s fwd%d warm-up: %w", name, N, err)
		}
		err := add(fmt.Sprintf("fwd%d", N), N, flops, bytes, func() error {
			_, err := m.ForwardAll([][]int{ids})
			return err
		})
		if err != nil {
			return nil, err
		}
		r := &rows[len(rows)-1] // the median run, as the figure
		r.Seconds = median(r.RunSeconds)
		r.TokensPerSec = float64(N) / r.Seconds
	}
	for _, n := range tg {
		if n > cfg.BlockSize || n < 1 {
			continue
		}
		flops, bytes := decodeCost(cfg, m.Precision, n)
		err := add(fmt.Sprintf("tg%d", n), n, flops, bytes, func() error {
			for i := 0; i < n; i++ {
				if _, err := m.ForwardCached(cache, ids[i:i+1]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// rateStats is the mean and standard deviation of n/s over the runs' seconds.
func rateStats(n int, seconds []float64) (meanRate, sd float64) {
	rates := make([]float64, len(seconds))
	for i, s := range seconds {
		rates[i] = float64(n) / s
	}
	meanRate = mean(rates)
	if len(rates) < 2 {
		return meanRate, 0
	}
	var ss float64
	for _, r := range rates {
		ss += (r - meanRate) * (r - meanRate)
	}
	return meanRate, math.Sqrt(ss / float64(len(rates)-1))
}

// median is the middle of xs (the upper one of an even count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
