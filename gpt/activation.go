package gpt

import (
	"fmt"
	"math"
	"strings"
)

// Activation is one named activation: its values in row-major order and its shape, batch
// first, as TransformerLens shows them. A tensor from a cache or a hook is a copy or a
// view the forward pass owns; the doc of the function that returns it says which.
type Activation struct {
	Name  string    // the hook point's name, e.g. "blocks.0.attn.hook_pattern"
	Shape []int     // e.g. [1 12 5 5] for (B, NH, T, T)
	Data  []float32 // len(Data) is the product of Shape
}

// Len returns the number of values the shape holds.
func (t *Activation) Len() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// offset returns the index in Data of the element at idx, or an error naming the bad index.
func (t *Activation) offset(idx []int) (int, error) {
	if len(idx) != len(t.Shape) {
		return 0, fmt.Errorf("gpt: %s: %d indices for a tensor of shape %v", t.Name, len(idx), t.Shape)
	}
	off := 0
	for i, d := range t.Shape {
		if idx[i] < 0 || idx[i] >= d {
			return 0, fmt.Errorf("gpt: %s: index %d of dimension %d is outside [0, %d) (shape %v)", t.Name, idx[i], i, d, t.Shape)
		}
		off = off*d + idx[i]
	}
	return off, nil
}

// At returns the value at idx (one index per dimension); it panics with the tensor's name
// and shape when idx does not fit.
func (t *Activation) At(idx ...int) float32 {
	off, err := t.offset(idx)
	if err != nil {
		panic(err)
	}
	return t.Data[off]
}

// Set stores v at idx (one index per dimension); it panics like At.
func (t *Activation) Set(v float32, idx ...int) {
	off, err := t.offset(idx)
	if err != nil {
		panic(err)
	}
	t.Data[off] = v
}

// Stats returns the mean, the standard deviation (population) and the L2 norm of the
// values, skipping infinities (the masked scores are −Inf) and NaNs.
func (t *Activation) Stats() (mean, std, norm float64) {
	var sum, sq float64
	n := 0
	for _, v := range t.Data {
		f := float64(v)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			continue
		}
		sum += f
		sq += f * f
		n++
	}
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	mean = sum / float64(n)
	return mean, math.Sqrt(math.Max(sq/float64(n)-mean*mean, 0)), math.Sqrt(sq)
}

// String prints the name, the shape and the statistics, e.g.
// "blocks.0.hook_resid_pre [1 5 768] mean 0.0012 std 0.41 norm 25.3".
func (t *Activation) String() string {
	mean, std, norm := t.Stats()
	dims := make([]string, len(t.Shape))
	for i, d := range t.Shape {
		dims[i] = fmt.Sprint(d)
	}
	return fmt.Sprintf("%s [%s] mean %.4g std %.4g norm %.4g", t.Name, strings.Join(dims, " "), mean, std, norm)
}
