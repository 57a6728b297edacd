package study

import (
	"fmt"
	"math"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
)

// The rows of "Training is one call": a forward with and without targets, and the time of one
// forward over 1,024 positions.

// tokens returns n token ids of a fixed pseudo-random sequence below vocab.
func tokens(n, vocab int) []int {
	ids := make([]int, n)
	x := uint64(0x9e3779b97f4a7c15)
	for i := range ids {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		ids[i] = int(x % uint64(vocab))
	}
	return ids
}

func rowForwardTargets(r *Run) (Result, error) {
	m, err := r.smallModel()
	if err != nil {
		return Result{}, err
	}
	ids := tokens(93, m.Config.VocabSize)
	out, err := m.Forward([][]int{ids[:92]}, [][]int{ids[1:]})
	if err != nil {
		return Result{}, err
	}
	return Result{Ours: fmt.Sprintf("logits [%d, %d, %d], loss %.3f (ln %d = %.3f)",
		out.B, out.T, out.V, out.Loss, m.Config.VocabSize, math.Log(float64(m.Config.VocabSize))),
		Numbers: append(logitsShape(out), Number{"loss", float64(out.Loss), "nats"}), Model: smallRandom}, nil
}

// logitsShape is the shape of a forward's logits as numbers: B, T and V.
func logitsShape(out *gpt.Output) []Number {
	return []Number{{"logits B", float64(out.B), ""}, {"logits T", float64(out.T), "positions"}, {"logits V", float64(out.V), "tokens"}}
}

func rowForwardLast(r *Run) (Result, error) {
	m, err := r.smallModel()
	if err != nil {
		return Result{}, err
	}
	out, err := m.Forward([][]int{tokens(92, m.Config.VocabSize)}, nil)
	if err != nil {
		return Result{}, err
	}
	return Result{Ours: fmt.Sprintf("92 positions in, logits [%d, %d, %d] out, loss %v", out.B, out.T, out.V, out.Loss),
		Numbers: logitsShape(out), Model: smallRandom}, nil
}

func rowForward1024(r *Run) (Result, error) {
	d, err := r.forwardTime()
	if err != nil {
		return Result{}, err
	}
	_, name, _ := r.timingModel()
	return Result{Ours: fmt.Sprintf("%.2f s (all 1,024 × 50,257 logits; %s)", d.Seconds(), gpt.BLAS),
		Numbers: []Number{{"forward", d.Seconds(), "s"}}, Model: name}, nil
}

// forwardTime is the time of a ForwardAll of GPT-2 small over 1,024 positions, all logits,
// measured once per run.
func (r *Run) forwardTime() (time.Duration, error) {
	if r.forward1024 > 0 {
		return r.forward1024, nil
	}
	m, _, err := r.timingModel()
	if err != nil {
		return 0, err
	}
	ids := [][]int{tokens(1024, m.Config.VocabSize)}
	// The first call also allocates the buffers; when it is quick enough, time a second one
	// and keep the faster (on a loaded machine the second run is not worth its time).
	var best time.Duration
	for i := 0; i < 2; i++ {
		t0 := time.Now()
		if _, err := m.ForwardAll(ids); err != nil {
			return 0, err
		}
		d := time.Since(t0)
		if best == 0 || d < best {
			best = d
		}
		if d > 10*time.Second {
			break
		}
	}
	r.forward1024 = best
	return best, nil
}
