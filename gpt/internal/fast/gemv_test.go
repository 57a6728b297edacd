package fast

import (
	"math/rand/v2"
	"testing"
)

// The one-row products (a cached decode step's) against float64 loops, on sizes that leave
// rows past the kernels' fours and columns past their eights, with a row stride wider than
// a row: gemvRows adds into y, gemvDot sets y.
func TestGemvKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for _, sz := range [][2]int{{1, 1}, {4, 8}, {7, 13}, {64, 96}, {131, 203}} {
		rows, cols := sz[0], sz[1]
		ldw := cols + 3
		w := randomSlice(rng, rows*ldw, 1)
		x := randomSlice(rng, rows, 1)
		y := randomSlice(rng, cols, 1)
		want := make([]float32, cols)
		for j := range want {
			s := float64(y[j])
			for i := 0; i < rows; i++ {
				s += float64(x[i]) * float64(w[i*ldw+j])
			}
			want[j] = float32(s)
		}
		gemvRows(y, x, w, ldw)
		if d := maxDiff(y, want); d > 1e-4 {
			t.Errorf("gemvRows %d×%d: max |diff| %g", rows, cols, d)
		}

		// gemvDot: y (rows) = w (rows, cols)·x (cols).
		xd := randomSlice(rng, cols, 1)
		yd := randomSlice(rng, rows, 1) // garbage that must be overwritten
		wantd := make([]float32, rows)
		for i := range wantd {
			var s float64
			for j := 0; j < cols; j++ {
				s += float64(w[i*ldw+j]) * float64(xd[j])
			}
			wantd[i] = float32(s)
		}
		gemvDot(yd, xd, w, ldw)
		if d := maxDiff(yd, wantd); d > 1e-4 {
			t.Errorf("gemvDot %d×%d: max |diff| %g", rows, cols, d)
		}
	}
	t.Logf("kernels: %q (hasKernels %v)", kernelsName, hasKernels())
}
