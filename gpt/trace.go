package gpt

import (
	"fmt"
	"github.com/gptnotes/gptnotes/gpt/internal/fast"
	"html"
	"math"
	"strings"
	"time"
)

// TraceOptions says what a Trace records.
type TraceOptions struct {
	// Position is the query position whose attention weights are kept, for every layer and
	// head; negative counts from the end (-1 is the last position).
	Position int
}

// Trace is one forward pass of one sequence, step by step: the residual stream's norm
// after the embedding and after every block, the attention weights of one query position
// in every layer and head, and the time each stage took.
type Trace struct {
	Config    Config
	Precision Precision
	IDs       []int         // (T) the tokens forwarded
	Norms     [][]float64   // (L+1, T) ‖x‖ per position: row 0 after the embedding, row l after block l
	MeanNorms []float64     // (L+1) the mean over positions of each row of Norms
	Position  int           // the query position of Attention, 0 ≤ Position < T
	Attention [][][]float32 // (L, NH, Position+1) the weights of the query at Position over keys 0…Position
	Stages    []Stage       // embedding, block 1 … block L, ln_f + output layer
	Logits    []float32     // (V) the logits of the last position
}

// Stage is one timed step of a Trace.
type Stage struct {
	Name     string
	Duration time.Duration
}

// Trace runs ids (one sequence) through the model recording a Trace. The numbers are the
// model's own (same kernels and precision as Forward); Trace is slower than Forward only by
// the bookkeeping.
func (m *Model) Trace(ids []int, opts TraceOptions) (*Trace, error) {
	cfg := m.Config
	_, T, err := m.checkBatch("trace", [][]int{ids}, nil)
	if err != nil {
		return nil, err
	}
	pos := opts.Position
	if pos < 0 {
		pos += T
	}
	if pos < 0 || pos >= T {
		return nil, fmt.Errorf("gpt: trace: position %d outside the %d positions", opts.Position, T)
	}
	C, NH, V := cfg.Channels, cfg.Heads, cfg.VocabSize
	tr := &Trace{Config: cfg, Precision: m.Precision, IDs: append([]int(nil), ids...), Position: pos}
	a := newActivations(cfg, 1, T, false)
	r := m.newRun(a, 1, T)
	record := func(x []float32) {
		norms := rowNorms(x, T, C)
		var mean float64
		for _, n := range norms {
			mean += n / float64(T)
		}
		tr.Norms = append(tr.Norms, norms)
		tr.MeanNorms = append(tr.MeanNorms, mean)
	}

	start := time.Now()
	x := r.embed(ids)
	r.at(0, "hook_resid_pre", x) // the precision policy, before the norms are taken (block 0 applies it again, to the same effect)
	tr.Stages = append(tr.Stages, Stage{"embedding", time.Since(start)})
	record(a.encoded)

	for l := 0; l < cfg.Layers; l++ {
		start := time.Now()
		la := a.layer(l, C, NH)
		x = r.block(l, m.block(l), x, la)
		tr.Stages = append(tr.Stages, Stage{fmt.Sprintf("block %d", l+1), time.Since(start)})
		record(x)
		heads := make([][]float32, NH)
		for h := range heads {
			heads[h] = attentionRow(la.qkv, pos, h, C, NH)
		}
		tr.Attention = append(tr.Attention, heads)
	}

	start = time.Now()
	tr.Logits = make([]float32, V)
	r.final(tr.Logits, a.lnf[:C], nil, nil, x[(T-1)*C:T*C], 1)
	tr.Stages = append(tr.Stages, Stage{"ln_f + output layer", time.Since(start)})
	return tr, nil
}

// attentionRow recomputes the attention weights (t+1) of the query at position t in head h
// from one sequence's qkv (T, 3C), the way the fast attention kernel does.
func attentionRow(qkv []float32, t, h, C, NH int) []float32 {
	HS := C / NH
	scale := float32(1 / math.Sqrt(float64(HS)))
	q := qkv[t*3*C+h*HS : t*3*C+(h+1)*HS]
	row := make([]float32, t+1)
	for j := range row {
		k := qkv[j*3*C+C+h*HS : j*3*C+C+(h+1)*HS]
		var d float32
		for i := range q {
			d += q[i] * k[i]
		}
		row[j] = d * scale
	}
	fast.Softmax(row)
	return row
}

// Total is the time of all stages.
func (tr *Trace) Total() time.Duration {
	var d time.Duration
	for _, s := range tr.Stages {
		d += s.Duration
	}
	return d
}

// HTML renders the trace for a notebook cell: one row per stage with the mean residual
// norm, its growth over the embedding, its smallest and largest position and the time,
// then the attention of the traced position, one row per layer and head, over at most the
// last 24 keys.
func (tr *Trace) HTML() string {
	var b strings.Builder
	T := len(tr.IDs)
	fmt.Fprintf(&b, "<table><caption>trace of %d positions, %s, %v, %v in all</caption>", T, tr.Precision, tr.Config, tr.Total().Round(time.Microsecond))
	b.WriteString("<tr><th>stage</th><th>mean ‖x‖</th><th>× embedding</th><th>min ‖x‖</th><th>max ‖x‖</th><th>time</th></tr>")
	for i, s := range tr.Stages {
		if i < len(tr.Norms) {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, n := range tr.Norms[i] {
				lo, hi = math.Min(lo, n), math.Max(hi, n)
			}
			fmt.Fprintf(&b, "<tr><td>%s</td><td>%.3f</td><td>%.2f</td><td>%.3f</td><td>%.3f</td><td>%v</td></tr>",
				html.EscapeString(s.Name), tr.MeanNorms[i], tr.MeanNorms[i]/tr.MeanNorms[0], lo, hi, s.Duration.Round(time.Microsecond))
		} else {
			fmt.Fprintf(&b, "<tr><td>%s</td><td></td><td></td><td></td><td></td><td>%v</td></tr>", html.EscapeString(s.Name), s.Duration.Round(time.Microsecond))
		}
	}
	b.WriteString("</table>")

	first := max(0, tr.Position+1-24)
	fmt.Fprintf(&b, "<table><caption>attention of position %d (token %d) over keys %d…%d</caption><tr><th>layer</th><th>head</th>",
		tr.Position, tr.IDs[tr.Position], first, tr.Position)
	for j := first; j <= tr.Position; j++ {
		fmt.Fprintf(&b, "<th>%d</th>", j)
	}
	b.WriteString("</tr>")
	for l, heads := range tr.Attention {
		for h, row := range heads {
			fmt.Fprintf(&b, "<tr><td>%d</td><td>%d</td>", l+1, h)
			for j := first; j <= tr.Position; j++ {
				w := row[j]
				fmt.Fprintf(&b, "<td style=\"background:rgba(31,119,180,%.2f)\">%.2f</td>", math.Min(1, float64(w)), w)
			}
			b.WriteString("</tr>")
		}
	}
	b.WriteString("</table>")
	return b.String()
}
