package fast

import "testing"

// TestStreamRead checks the probe computes what it reads: each row's dot product with x.
func TestStreamRead(t *testing.T) {
	const rows, cols = 4100, 24
	w, x, y := make([]float32, rows*cols), make([]float32, cols), make([]float32, rows)
	for i := range w {
		w[i] = float32(i%7) - 3
	}
	for j := range x {
		x[j] = float32(j%5) - 2
	}
	StreamRead(y, x, w)
	for i := 0; i < rows; i++ {
		var want float32
		for j := 0; j < cols; j++ {
			want += w[i*cols+j] * x[j]
		}
		if y[i] != want {
			t.Fatalf("row %d: got %g, want %g", i, y[i], want)
		}
	}
}

// TestFMAPeak checks the FLOP count FMAPeak reports: twelve 8-wide FMAs a round, or none
// without a peak kernel.
func TestFMAPeak(t *testing.T) {
	got := FMAPeak(1000)
	if PeakKernel == "" {
		if got != 0 {
			t.Errorf("no peak kernel, but FMAPeak(1000) = %g FLOPs", got)
		}
		return
	}
	if want := 1000.0 * 12 * 8 * 2; got != want {
		t.Errorf("FMAPeak(1000) = %g FLOPs, want %g", got, want)
	}
}

// TestBF16Peak checks the FLOP count BF16Peak reports: 24 VDPBF16PS a round, each two
// multiply-adds in each of 16 lanes, or none without a bf16 peak kernel.
func TestBF16Peak(t *testing.T) {
	got := BF16Peak(1000)
	if BF16PeakKernel == "" {
		if got != 0 {
			t.Errorf("no bf16 peak kernel, but BF16Peak(1000) = %g FLOPs", got)
		}
		return
	}
	if want := 1000.0 * 24 * 16 * 4; got != want {
		t.Errorf("BF16Peak(1000) = %g FLOPs, want %g", got, want)
	}
}
