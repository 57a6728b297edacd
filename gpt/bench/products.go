package bench

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// Point is one step of the model on the roofline: a product of the forward, attention, or a
// whole decode step or prompt.
type Point struct {
	Name string `json:"name"` // e.g. "mlp.c_fc (1024×768 · 768×3072)"
	Kind string `json:"kind"` // "product", "attention", "decode step", "prompt" or "forward"
	// Precision is the step's, "fp32" or "bf16": it picks the peak that bounds it.
	Precision string `json:"precision"`
	Roof
}

// measureProducts times, on the kernels a forward of cfg over N positions runs in fp32, each
// of its five products (every block's four, and the output layer over all N rows) and its
// causal attention, reps times each after one warm-up; inputs are random, as the speed does
// not depend on them. Each product's bytes are its two inputs, its bias and its output.
func measureProducts(cfg gpt.Config, N, reps int, llc int) []Point {
	C, NH, V := cfg.Channels, cfg.Heads, cfg.VocabSize
	rng := rand.New(rand.NewPCG(8, 8))
	random := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64() * 0.02)
		}
		return x
	}
	var points []Point
	add := func(name, kind string, flops, bytes float64, run func()) {
		run()
		var secs []float64
		for k := 0; k < reps; k++ {
			start := time.Now()
			run()
			secs = append(secs, time.Since(start).Seconds())
		}
		p := Point{Name: name, Kind: kind, Precision: "fp32", Roof: Roof{FLOPs: flops, Bytes: bytes, Seconds: mean(secs),
			InLLC: llc > 0 && bytes <= float64(llc)}}
		points = append(points, p)
	}
	for _, s := range []struct {
		name    string
		in, out int
	}{
		{"attn.c_attn", C, 3 * C}, {"attn.c_proj", C, C}, {"mlp.c_fc", C, 4 * C}, {"mlp.c_proj", 4 * C, C},
	} {
		inp, w, bias, out := random(N*s.in), random(s.in*s.out), random(s.out), make([]float32, N*s.out)
		flops := 2 * float64(N) * float64(s.in) * float64(s.out)
		bytes := 4 * float64(N*s.in+s.in*s.out+s.out+N*s.out)
		add(fmt.Sprintf("%s (%d×%d · %d×%d)", s.name, N, s.in, s.in, s.out), "product", flops, bytes,
			func() { fast.MatmulForward(out, inp, w, bias, N, s.in, s.out) })
	}
	{
		inp, wte, out := random(N*C), random(V*C), make([]float32, N*V)
		flops := 2 * float64(N) * float64(C) * float64(V)
		bytes := 4 * float64(N*C+V*C+N*V)
		add(fmt.Sprintf("lm_head (%d×%d · %d×%d)", N, C, C, V), "product", flops, bytes,
			func() { fast.Logits(out, V, inp, wte, N, C, V) })
	}
	{
		qkv, out := random(N*3*C), make([]float32, N*C)
		t := float64(N)
		flops := 2 * float64(C) * t * (t + 1) // q·k and the sum of v, over t+1 keys at t
		bytes := 4 * float64(N*3*C+N*C)
		add(fmt.Sprintf("attention (%d positions, %d heads)", N, NH), "attention", flops, bytes,
			func() { fast.Attention(out, nil, qkv, 1, N, C, NH, false) })
	}
	return points
}

// rowPoint is a row of the table as a point: a tg row is a decode step (each of its steps
// has about the row's intensity), a pp row a prompt.
func rowPoint(r Row) Point {
	kind := "prompt"
	switch {
	case strings.HasPrefix(r.Test, "tg"):
		kind = "decode step"
	case strings.HasPrefix(r.Test, "fwd"):
		kind = "forward"
	}
	return Point{Name: fmt.Sprintf("%s %s %s", kind, r.Precision, r.Test), Kind: kind, Precision: r.Precision, Roof: r.Roof}
}
