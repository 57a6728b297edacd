package fast

import (
	"math"
	"testing"
)

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

// TestStreamReadWeights checks the probe of a model's weights reads every whole row of them:
// a BF16 slab's bytes as float32s, an FP32 slab as it is.
func TestStreamReadWeights(t *testing.T) {
	const cols = 16
	w16 := make([]uint16, 2*cols*5+6) // five rows of float32s, and a part row
	for i := range w16 {
		w16[i] = 0x3f80 // 1.0 in bfloat16
	}
	x := make([]float32, cols)
	for j := range x {
		x[j] = 1
	}
	y := make([]float32, 8)
	StreamReadWeights(y, x, nil, w16)
	// Each float32 is two bfloat16 ones side by side: high half 0x3f80, low half 0x3f80.
	one := math.Float32frombits(0x3f803f80)
	for i := range 5 {
		if want := cols * one; y[i] != want {
			t.Fatalf("bf16 row %d: got %g, want %g", i, y[i], want)
		}
	}
	if y[5] != 0 {
		t.Errorf("bf16: the part row was read: y[5] = %g", y[5])
	}
	w32 := make([]float32, cols*3+1)
	for i := range w32 {
		w32[i] = 2
	}
	clear(y)
	StreamReadWeights(y, x, w32, nil)
	if y[0] != 2*cols || y[2] != 2*cols || y[3] != 0 {
		t.Errorf("fp32 rows: got %v, want three rows of %d and no more", y[:4], 2*cols)
	}
}
