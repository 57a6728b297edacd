package fast

import "unsafe"

// The machine's two ceilings, as probes gpt/bench times: how fast the cores can read memory
// (StreamRead) and how fast they can multiply and add (FMAPeak, peak_amd64.go; and BF16Peak,
// on the instruction a BF16 model's products run on where the CPU has AVX-512 BF16). A
// cached decode step is bound by the first, a long prompt's products by the second.

// StreamRead reads w once, in memory order, on every core: the dot products of its rows of
// len(x) numbers with x, into y (one per row), by the one-row kernel a decode step's products
// run on (gemv.go). x stays in cache, so for a w much larger than the last-level cache its
// time is the time to bring w from memory: bytes(w)/time is the stream bandwidth.
func StreamRead(y, x, w []float32) {
	cols := len(x)
	Chunks(len(y), 1024, func(lo, hi int) { gemvDot(y[lo:hi], x, w[lo*cols:], cols) })
}

// StreamReadWeights reads a model's own weights as StreamRead reads its buffer: w32 (an FP32
// model's slab), or w16 (a BF16 model's) taken as float32s two bfloat16s at a time — the
// probe's kernel does not look at the numbers, and x is zero — so that a decode step can be
// put against the time the cores take to read the very bytes it reads, at the same moment.
// It reads whole rows of len(x) floats; y has room for one number a row.
func StreamReadWeights(y, x, w32 []float32, w16 []uint16) {
	if w16 != nil {
		w32 = unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(w16))), len(w16)/2)
	}
	rows := len(w32) / len(x)
	StreamRead(y[:rows], x, w32[:rows*len(x)])
}
