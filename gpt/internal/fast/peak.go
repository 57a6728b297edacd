package fast

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
