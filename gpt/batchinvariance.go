package gpt

import (
	"fmt"
	"math"
)

// Batch invariance. A serving engine runs many users' prompts in one batch, and the matrix
// library it calls picks a plan for each product from the product's shape. With few rows a
// product leaves cores idle, so libraries split the shared dimension C into chunks summed
// separately and added at the end ("split-K"); with many rows they do not. Floating-point
// addition is not associative, so the same prompt's logits then depend on how many other
// prompts shared its batch.
//
// Ours choose by shape too (gpt/internal/fast): a product of one row runs on gemv, which
// streams the weights in memory order; fewer than 6 rows go to the BLAS (gonum's or
// OpenBLAS); 6 rows or more run through our sgemm, whose micro-kernel sums every row in the
// same order whatever the number of rows. So a prompt of 6 tokens or more gets the same
// logits to the bit alone and in a batch of 8 (CompareBatch: max |Δlogit| = 0), while a
// shorter prompt, or one sequence decoded alone against eight decoded together, can move in
// the last bits. CompareBatchInvariance measures both beside a split-K output layer whose
// plan follows the number of rows, the way such libraries choose.

// splitKChunks is the split-K plan: how many chunks the shared dimension is cut into for a
// product of N rows. Fewer rows leave more cores idle, so they get more chunks (partial sums
// to spread over the cores): 8 below 16 rows, 4 below 64, 2 below 256, none from 256.
func splitKChunks(N int) int {
	switch {
	case N < 16:
		return 8
	case N < 64:
		return 4
	case N < 256:
		return 2
	}
	return 1
}

// splitKLogits is the tied output layer, out = inp·wteᵀ (as logitsForward), computed with
// the split-K plan for N rows: each of the plan's chunks of C sums in float32 in order, then
// the chunks' partial sums are added in float32.
//
//	out (N, V)   inp (N, C)   wte (V, C)
func splitKLogits(out, inp, wte []float32, N, C, V int) {
	chunks := splitKChunks(N)
	size := (C + chunks - 1) / chunks
	for n := 0; n < N; n++ {
		x := inp[n*C : (n+1)*C]
		for v := 0; v < V; v++ {
			w := wte[v*C : (v+1)*C]
			var total float32
			for lo := 0; lo < C; lo += size {
				var part float32
				for i := lo; i < min(lo+size, C); i++ {
					part += x[i] * w[i]
				}
				total += part
			}
			out[n*V+v] = total
		}
	}
}

// BatchInvariance compares one prompt's logits computed alone and as one of Batch identical
// rows of a batch, with our output layer and with a split-K one.
type BatchInvariance struct {
	Batch, T                   int     // the batch, and the prompt's positions
	Ours                       float64 // max |Δlogit| alone (T rows) vs in the batch (Batch·T rows), our product: 0 from 6 positions
	OursOneRow                 float64 // the same for the last position alone (1 row) vs Batch rows: a decode step
	SplitK                     float64 // max |Δlogit| alone vs in the batch, the split-K product
	SplitsAlone, SplitsBatched int     // the chunks the split-K plan cut C into for T and for Batch·T rows
	SplitKTokensEqual          bool    // the split-K product's argmax is the same alone and batched, at every position
}

// CompareBatchInvariance runs prompt through the model once (fp32), takes ln_f's output at
// every position, and computes the logits with the output layer alone (T rows) and in a
// batch of batch copies (batch·T rows), with our product and with a split-K product whose
// plan depends on the number of rows (see splitKChunks). It also compares the last position
// alone (one row, as a decode step multiplies) with batch copies of it: there our product
// changes kernel (gemv for one row, the sgemm for 6 or more), and the order of the sums with it.
func CompareBatchInvariance(m *Model, prompt []int, batch int) (*BatchInvariance, error) {
	if m.Precision != FP32 || m.Params == nil {
		return nil, fmt.Errorf("gpt: compare batch invariance: a %s model; use the fp32 one", m.Precision)
	}
	if batch < 2 {
		return nil, fmt.Errorf("gpt: compare batch invariance: batch %d, want ≥ 2", batch)
	}
	if _, err := m.ForwardAll([][]int{prompt}); err != nil {
		return nil, fmt.Errorf("gpt: compare batch invariance: %w", err)
	}
	C, V, T := m.Config.Channels, m.Config.VocabSize, len(prompt)
	wte := m.Params.Wte
	x := append([]float32(nil), m.acts.lnf[:T*C]...) // (T, C) ln_f's output
	res := &BatchInvariance{Batch: batch, T: T, SplitsAlone: splitKChunks(T), SplitsBatched: splitKChunks(batch * T), SplitKTokensEqual: true}

	// compare multiplies rows (n, C), one copy alone and batch copies, with product, and
	// returns the largest |Δlogit| of the first copy.
	compare := func(rows []float32, n int, product func(out, inp, wte []float32, N, C, V int), tokens *bool) float64 {
		xs := make([]float32, 0, batch*n*C)
		for b := 0; b < batch; b++ {
			xs = append(xs, rows...)
		}
		alone, batched := make([]float32, n*V), make([]float32, batch*n*V)
		product(alone, rows, wte, n, C, V)
		product(batched, xs, wte, batch*n, C, V)
		var d float64
		for t := 0; t < n; t++ {
			a, b := alone[t*V:(t+1)*V], batched[t*V:(t+1)*V]
			dt, _, _ := logitStats(a, b)
			d = math.Max(d, dt)
			if tokens != nil && argmax(a) != argmax(b) {
				*tokens = false
			}
		}
		return d
	}
	res.Ours = compare(x, T, logitsForward, nil)
	res.OursOneRow = compare(x[(T-1)*C:], 1, logitsForward, nil)
	res.SplitK = compare(x, T, splitKLogits, &res.SplitKTokensEqual)
	return res, nil
}

func (r *BatchInvariance) String() string {
	tok := "same tokens"
	if !r.SplitKTokensEqual {
		tok = "a token changed"
	}
	return fmt.Sprintf("%d positions alone vs in a batch of %d: ours max |Δlogit| %.3g (one row: %.3g); split-K (%d chunks alone, %d batched) %.3g, %s",
		r.T, r.Batch, r.Ours, r.OursOneRow, r.SplitsAlone, r.SplitsBatched, r.SplitK, tok)
}

// HTML renders the products side by side.
func (r *BatchInvariance) HTML() string {
	return fmt.Sprintf("<table><caption>the same prompt alone and in a batch of %d: its logits</caption>"+
		"<tr><th>output layer</th><th>plan</th><th>max |Δlogit|</th></tr>"+
		"<tr><td>ours, %d positions</td><td>the sgemm from 6 rows: one order for every row, whatever the batch</td><td>%s</td></tr>"+
		"<tr><td>ours, one position</td><td>gemv for 1 row, the sgemm for %d</td><td>%s</td></tr>"+
		"<tr><td>split-K, %d positions</td><td>%d chunks alone, %d in the batch</td><td>%s</td></tr></table>",
		r.Batch, r.T, diffText(r.Ours), r.Batch, diffText(r.OursOneRow), r.T, r.SplitsAlone, r.SplitsBatched, diffText(r.SplitK))
}

func diffText(d float64) string {
	if d == 0 {
		return "0 (equal to the bit)"
	}
	return fmt.Sprintf("%.2e (about 2^%.0f)", d, math.Log2(d))
}
