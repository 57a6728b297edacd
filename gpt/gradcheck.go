package gpt

import (
	"fmt"
	"math"
	"strings"
)

// GradCheck compares the gradients of Backward with central finite differences of the
// loss, for every parameter tensor: for each checked entry w,
//
//	numeric = (loss(w + eps) - loss(w - eps)) / 2eps
//
// where the loss is recomputed in float64 from the logits (the forward itself is fp32, so
// eps should be around 1e-2 to 1e-3). perTensor entries are checked in each tensor, spread
// evenly, always including the entry with the largest analytic gradient; perTensor ≤ 0
// checks every entry (only sensible for a tiny model). The parameters are restored.
func GradCheck(m *Model, batch, targets [][]int, eps float64, perTensor int) (GradCheckTable, error) {
	if _, err := m.Forward(batch, targets); err != nil {
		return nil, err
	}
	if err := m.Backward(); err != nil {
		return nil, err
	}
	analytic := append([]float32(nil), m.Grads.Data...)
	loss := func() (float64, error) {
		out, err := m.ForwardAll(batch)
		if err != nil {
			return 0, err
		}
		return meanLoss64(out, targets), nil
	}
	var rows GradCheckTable
	for _, t := range m.Params.Tensors {
		row := GradCheckRow{Tensor: t.Name, Shape: t.Shape}
		var diff2, a2, n2 float64
		for _, i := range checkIndices(analytic[t.Offset:t.Offset+t.Size()], perTensor) {
			w := t.Data[i]
			t.Data[i] = float32(float64(w) + eps)
			up, err := loss()
			if err != nil {
				return nil, err
			}
			t.Data[i] = float32(float64(w) - eps)
			down, err := loss()
			if err != nil {
				return nil, err
			}
			t.Data[i] = w
			num := (up - down) / (2 * eps)
			ana := float64(analytic[t.Offset+i])
			diff2 += (ana - num) * (ana - num)
			a2 += ana * ana
			n2 += num * num
			row.MaxAbsDiff = math.Max(row.MaxAbsDiff, math.Abs(ana-num))
			row.Checked++
		}
		row.AnalyticNorm, row.NumericNorm = math.Sqrt(a2), math.Sqrt(n2)
		if den := math.Max(row.AnalyticNorm, row.NumericNorm); den > 0 {
			row.RelErr = math.Sqrt(diff2) / den
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// GradCheckRow is the comparison for one parameter tensor.
type GradCheckRow struct {
	Tensor       string  // e.g. "h.0.attn.c_attn.weight"
	Shape        []int   // e.g. [32 96]
	Checked      int     // entries compared
	AnalyticNorm float64 // ‖backward's gradient‖ over the checked entries
	NumericNorm  float64 // ‖finite differences‖ over the same entries
	MaxAbsDiff   float64 // max |analytic - numeric|
	RelErr       float64 // ‖analytic - numeric‖ / max(‖analytic‖, ‖numeric‖)
}

func (r GradCheckRow) String() string {
	return fmt.Sprintf("%-26s %-10s %5d checked  ‖g‖ %.3e  max|Δ| %.2e  rel err %.2e",
		r.Tensor, fmt.Sprint(r.Shape), r.Checked, r.AnalyticNorm, r.MaxAbsDiff, r.RelErr)
}

// GradCheckTable is GradCheck's result, one row per parameter tensor; in a notebook it shows
// as a table.
type GradCheckTable []GradCheckRow

// HTML renders the table.
func (rows GradCheckTable) HTML() string {
	var b strings.Builder
	b.WriteString("<table><tr><th>tensor</th><th>shape</th><th>checked</th><th>‖analytic‖</th><th>‖numeric‖</th><th>max |Δ|</th><th>relative error</th></tr>")
	for _, r := range rows {
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%v</td><td>%d</td><td>%.3e</td><td>%.3e</td><td>%.2e</td><td>%.2e</td></tr>",
			r.Tensor, r.Shape, r.Checked, r.AnalyticNorm, r.NumericNorm, r.MaxAbsDiff, r.RelErr)
	}
	b.WriteString("</table>")
	return b.String()
}

// checkIndices picks n indices spread over g plus the index of its largest |g|; n ≤ 0
// or n ≥ len(g) picks all.
func checkIndices(g []float32, n int) []int {
	if n <= 0 || n >= len(g) {
		idx := make([]int, len(g))
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	big := 0
	for i, x := range g {
		if abs32(x) > abs32(g[big]) {
			big = i
		}
	}
	idx := []int{big}
	for k := 0; k < n-1; k++ {
		if i := k * len(g) / (n - 1); i != big {
			idx = append(idx, i)
		}
	}
	return idx
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// meanLoss64 is the mean cross-entropy of out's logits (B, T, V) against targets, in float64.
func meanLoss64(out *Output, targets [][]int) float64 {
	var total float64
	n := 0
	for b, row := range targets {
		for t, tgt := range row {
			if tgt == IgnoreTarget {
				continue
			}
			l := out.Row(b, t)
			total += LogSumExp(l) - float64(l[tgt])
			n++
		}
	}
	return total / float64(n)
}
