package bench

import (
	"fmt"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
)

// StagePart is a decode step of one model at one precision split into its stages
// (gpt.MeasureDecodeStages), each put against the memory stream measured in the same run.
type StagePart struct {
	Model   string            `json:"model"` // e.g. "small (random init)"
	Load    []float64         `json:"load"`
	InLLC   bool              `json:"in_llc"` // the weights fit in the last-level cache: the stream does not bound the step
	Stages  *gpt.DecodeStages `json:"stages"`
	Seconds float64           `json:"seconds"`
}

// stageContext is the prompt before the timed steps, as in the decode benchmarks of package
// gpt: 11 tokens.
const stageContext = 11

// writeStages writes p as a table: each stage's median time, its share of the step, the
// bytes it must read, the rate it read them at, the time it would take at the memory
// stream, and that time as a fraction of its own.
func writeStages(b *strings.Builder, p StagePart, streamGBs float64) {
	d := p.Stages
	fmt.Fprintf(b, "\n## decode step stages: %s, %s, median of %d steps after %d positions (load %s; %.0f s)\n\n",
		p.Model, d.Precision, d.Steps, d.Context, loadString(p.Load), p.Seconds)
	fmt.Fprintf(b, "| stage | ms | of the step | bytes | GB/s | at the stream, ms | of the stream |\n")
	fmt.Fprintf(b, "|---|---:|---:|---:|---:|---:|---:|\n")
	step := d.Stages[0].Seconds
	for _, s := range d.Stages {
		name := s.Name
		if s.Part == "in forward" || s.Part == "in step" {
			name = "· " + name
		}
		bytes, rate, at, of := "—", "—", "—", "—"
		if s.Bytes > 0 {
			gbs := float64(s.Bytes) / s.Seconds / 1e9
			bytes, rate = gpt.MB(s.Bytes), fmt.Sprintf("%.1f", gbs)
			if streamGBs > 0 {
				atStream := float64(s.Bytes) / streamGBs / 1e9
				at, of = fmt.Sprintf("%.2f", atStream*1e3), percent(atStream/s.Seconds)
			}
		}
		fmt.Fprintf(b, "| %s | %.2f | %s | %s | %s | %s | %s |\n", name, s.Seconds*1e3, percent(s.Seconds/step), bytes, rate, at, of)
	}
	if pr := d.Paired; pr.Seconds > 0 {
		fmt.Fprintf(b, "\nPaired: before each step the stream probe read the model's own weights (%s) in %.2f ms, median (%.1f GB/s); "+
			"each step's rate over the rate of the read just before it, median of the steps: **%s** (quartiles %s–%s).\n",
			gpt.MB(pr.Bytes), pr.Seconds*1e3, float64(pr.Bytes)/pr.Seconds/1e9, percent(pr.Fraction), percent(pr.FractionLow), percent(pr.FractionHigh))
	}
	if p.InLLC {
		fmt.Fprintf(b, "\nThe weights fit in the last-level cache: the memory stream, DRAM's, does not bound this step.\n")
	}
}
