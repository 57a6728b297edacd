package gpt

import (
	"fmt"
	"strings"
)

// The arithmetic of generation, as the study does it on paper: how many positions go
// through the stack with and without a KV cache, and how many bytes the cache takes next to
// the weights. The Generator counts the same positions as it runs and the KVCache reports
// the bytes it allocated; the tests check that paper and measurement agree.

// Positions counts the positions pushed through the stack to generate newTokens after a
// prompt of promptLen tokens, as long as the context fits in the block (promptLen +
// newTokens - 1 ≤ BlockSize).
//
// Without a cache, step i forwards the whole context again: promptLen + i positions, so
// uncached = newTokens·promptLen + newTokens·(newTokens-1)/2. With a cache the prompt is
// forwarded once and then each new token once, except the last, which is only returned:
// cached = promptLen + newTokens - 1. An 11-token prompt and 256 new tokens: 35,456 vs 266.
func Positions(promptLen, newTokens int) (uncached, cached int) {
	if newTokens <= 0 {
		return 0, 0
	}
	uncached = newTokens*promptLen + newTokens*(newTokens-1)/2
	cached = promptLen + newTokens - 1
	return uncached, cached
}

// CacheBytes is the size of a KV cache holding positions positions of cfg: a key and a
// value of C numbers per position in each of L layers, 2·L·T·C numbers of bytesPerNumber
// bytes (4 for fp32, 2 for bf16). GPT-2 Small in fp32: 73,728 bytes per position,
// 75,497,472 (75.5 MB) at 1,024; XL in bf16: 314,572,800 (315 MB) per full sequence.
func CacheBytes(cfg Config, positions, bytesPerNumber int) int {
	return 2 * cfg.Layers * positions * cfg.Channels * bytesPerNumber
}

// BudgetRow sets the KV cache of a batch of full-length sequences beside the weights, for one
// model size and number format.
type BudgetRow struct {
	Name           string // "small", "medium", "large", "xl"
	Config         Config
	Format         string  // "fp32" or "bf16"
	BytesPerNumber int     // 4 or 2
	Weights        int     // bytes of the weights: NumParams (tied) × BytesPerNumber
	PerSequence    int     // bytes of one sequence's cache at Positions positions
	Cache          int     // PerSequence × Batch
	Equal          float64 // sequences whose caches weigh as much as the weights: Weights/PerSequence
}

// CacheBudget is the study's "batch size is a memory decision" table: for every released
// GPT-2 size in fp32 and bf16, the weights against the cache of Batch sequences of
// Positions positions each.
type CacheBudget struct {
	Batch     int // sequences in flight, e.g. 8
	Positions int // positions per sequence, e.g. 1024
	Rows      []BudgetRow
}

// Budget computes the CacheBudget for batch sequences of positions positions each.
// GPT-2 XL in bf16: 3.1 GB of weights, 315 MB of cache per 1,024-position sequence, so
// about 10 sequences weigh as much as the weights.
func Budget(batch, positions int) CacheBudget {
	b := CacheBudget{Batch: batch, Positions: positions}
	for _, name := range []string{"small", "medium", "large", "xl"} {
		cfg := Presets[name]
		for _, f := range []struct {
			name  string
			bytes int
		}{{"fp32", 4}, {"bf16", 2}} {
			r := BudgetRow{Name: name, Config: cfg, Format: f.name, BytesPerNumber: f.bytes,
				Weights:     cfg.NumParams() * f.bytes,
				PerSequence: CacheBytes(cfg, positions, f.bytes)}
			r.Cache = r.PerSequence * batch
			if r.PerSequence > 0 {
				r.Equal = float64(r.Weights) / float64(r.PerSequence)
			}
			b.Rows = append(b.Rows, r)
		}
	}
	return b
}

// HTML renders the budget as a table, one row per size and format.
func (b CacheBudget) HTML() string {
	var s strings.Builder
	fmt.Fprintf(&s, "<table><caption>KV cache of %d sequence(s) × %s positions vs the weights</caption>",
		b.Batch, Commas(b.Positions))
	s.WriteString("<tr><th>model</th><th>format</th><th>weights</th><th>cache per sequence</th>" +
		"<th>cache × batch</th><th>cache / weights</th><th>sequences = weights</th></tr>")
	for _, r := range b.Rows {
		fmt.Fprintf(&s, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%.2f</td><td>%.1f</td></tr>",
			r.Name, r.Format, MB(r.Weights), MB(r.PerSequence), MB(r.Cache),
			float64(r.Cache)/float64(r.Weights), r.Equal)
	}
	s.WriteString("</table>")
	return s.String()
}

func (b CacheBudget) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "KV cache of %d sequence(s) × %d positions vs the weights\n", b.Batch, b.Positions)
	for _, r := range b.Rows {
		fmt.Fprintf(&s, "%-6s %s  weights %9s  cache/seq %9s  cache×%d %9s  %.1f sequences = weights\n",
			r.Name, r.Format, MB(r.Weights), MB(r.PerSequence), b.Batch, MB(r.Cache), r.Equal)
	}
	return s.String()
}

// MB writes a byte count in decimal units, megabytes in the middle: 75497472 → "75.5 MB",
// 3115222400 → "3.1 GB", 73728 → "73.7 kB", 512 → "512 bytes".
func MB(bytes int) string {
	switch {
	case bytes >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(bytes)/1e9)
	case bytes >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(bytes)/1e6)
	case bytes >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(bytes)/1e3)
	}
	return fmt.Sprintf("%d bytes", bytes)
}
