package gpt

import (
	"strings"
	"testing"
)

// CompareCaching on a small model: the same tokens, logits within float noise, the table
// rendered; past the block the comparison keeps holding.
func TestCompareCaching(t *testing.T) {
	m := genModel(t, cropCfg, 11)
	prompt := genPrompt(11, 7, cropCfg.VocabSize)
	c, err := CompareCaching(m, prompt, 2*cropCfg.BlockSize)
	if err != nil {
		t.Fatal(err)
	}
	// Removing the mean shift can raise one row's largest difference (d = [a, -a, -a] has
	// mean -a/3, so a becomes 4a/3), but never past twice the unshifted one.
	if c.FirstDiverge != 0 || c.MaxDiff > 1e-4 || c.MaxDiffShifted > 2*c.MaxDiff || c.MaxGapChange > 2e-4 {
		t.Errorf("%v", c)
	}
	if len(c.Steps) != 2*cropCfg.BlockSize || c.CachedPositions >= c.UncachedPositions {
		t.Errorf("%d steps, positions %d cached vs %d uncached", len(c.Steps), c.CachedPositions, c.UncachedPositions)
	}
	if c.NarrowestGap != c.Steps[c.NarrowestStep-1].Gap || c.NarrowestGap <= 0 {
		t.Errorf("narrowest gap %v at step %d", c.NarrowestGap, c.NarrowestStep)
	}
	if h := c.HTML(); !strings.Contains(h, "same tokens") || strings.Count(h, "<tr>") != len(c.Steps)+1 {
		t.Errorf("HTML:\n%s", h)
	}
	t.Log(c)
}

// ComparePrecision: a bf16 twin moves the logits by far more than the cache does.
func TestComparePrecision(t *testing.T) {
	m := genModel(t, cropCfg, 12)
	prompt := genPrompt(12, 7, cropCfg.VocabSize)
	c, err := ComparePrecision(m, m.WithPrecision(BF16), prompt, 40)
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxDiff < 1e-4 || c.Steps[0].MaxDiff < 1e-4 {
		t.Errorf("bf16 moved the first step's logits by only %.3g: %v", c.Steps[0].MaxDiff, c)
	}
	for _, s := range c.Steps {
		if c.Split == 0 || s.N < c.Split {
			if s.FP32 != s.BF16 {
				t.Fatalf("step %d: tokens differ before the split at %d", s.N, c.Split)
			}
		}
	}
	if c.Split > 0 && c.Steps[c.Split-1].FP32 == c.Steps[c.Split-1].BF16 {
		t.Errorf("split at %d but its tokens agree", c.Split)
	}
	if len(c.FP32Tokens) != 40 || len(c.BF16Tokens) != 40 {
		t.Errorf("generated %d and %d tokens", len(c.FP32Tokens), len(c.BF16Tokens))
	}
	if _, err := ComparePrecision(m, m, prompt, 1); err == nil {
		t.Error("two fp32 models: no error")
	}
	t.Log(c)
}

func TestCompareBatch(t *testing.T) {
	m := genModel(t, cropCfg, 13)
	prompt := genPrompt(13, 20, cropCfg.VocabSize)
	c, err := CompareBatch(m, prompt, 8)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 8 || !c.TokensEqual || c.MaxDiff > 1e-4 {
		t.Errorf("%v", c)
	}
	if h := c.HTML(); strings.Count(h, "<tr>") != 9 {
		t.Errorf("HTML:\n%s", h)
	}
	t.Log(c)
}

// BenchmarkComparePrecisionSmall is the study's bf16 row at GPT-2 Small's size: 200 greedy
// steps in fp32 and in bf16 side by side (random init, 11-token prompt), in s per comparison.
//
//	go test -tags openblas -run '^$' -bench ComparePrecisionSmall -benchtime 1x ./gpt/
func BenchmarkComparePrecisionSmall(b *testing.B) {
	m := smallModel(b)
	bf := smallModel16(b)
	prompt := genPrompt(5, 11, Small.VocabSize)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ComparePrecision(m, bf, prompt, 200); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/compare")
}
