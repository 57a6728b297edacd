package gpt

import (
	"math"
	"strings"
	"testing"
)

// The study's position counts (package study, "Generation is a loop"), on paper.
// TestGeneratorCountsPositions checks that the Generator pushes exactly these.
func TestPositions(t *testing.T) {
	u, c := Positions(11, 256)
	if u != 35_456 || c != 266 {
		t.Errorf("Positions(11, 256) = %d, %d; want 35,456 and 266", u, c)
	}
	for _, r := range []struct {
		n     int
		ratio float64
	}{{64, 37}, {256, 133}, {512, 261}} {
		u, c := Positions(11, r.n)
		if got := float64(u) / float64(c); math.Round(got) != r.ratio {
			t.Errorf("%d new tokens: %d/%d = %.2f×, want ≈%v×", r.n, u, c, got, r.ratio)
		}
	}
	if u, c := Positions(1, 1023); c != 1023 || u != 1023*1024/2 {
		t.Errorf("Positions(1, 1023) = %d, %d", u, c)
	}
}

func TestCacheBytes(t *testing.T) {
	if got := CacheBytes(Small, 1, 4); got != 73_728 {
		t.Errorf("Small fp32 per position = %s bytes, want 73,728", Commas(got))
	}
	if got := CacheBytes(Small, 1024, 4); got != 75_497_472 || MB(got) != "75.5 MB" {
		t.Errorf("Small fp32 at 1,024 = %s bytes (%s), want 75,497,472 (75.5 MB)", Commas(got), MB(got))
	}
	if got := CacheBytes(XL, 1024, 2); MB(got) != "314.6 MB" || math.Round(float64(got)/1e6) != 315 {
		t.Errorf("XL bf16 per sequence = %s, want ≈315 MB", MB(got))
	}
	b := Budget(8, 1024)
	if len(b.Rows) != 8 {
		t.Fatalf("budget has %d rows, want 4 sizes × 2 formats", len(b.Rows))
	}
	xl := b.Rows[7]
	if xl.Name != "xl" || xl.Format != "bf16" || MB(xl.Weights) != "3.1 GB" || math.Round(xl.Equal) != 10 {
		t.Errorf("XL bf16 row = %+v; want 3.1 GB of weights, ≈10 sequences", xl)
	}
	if xl.Cache != 8*xl.PerSequence {
		t.Errorf("cache of 8 = %d, want 8 × %d", xl.Cache, xl.PerSequence)
	}
	if h := b.HTML(); !strings.Contains(h, "<td>xl</td><td>bf16</td><td>3.1 GB</td><td>314.6 MB</td>") {
		t.Errorf("budget table lacks the XL bf16 row:\n%s", h)
	}
}
