package fast

// MaxBlock is how many elements BlockMax reduces to one: eight AVX2 registers.
const MaxBlock = 64

// BlockMax writes into dst (⌈len(x)/MaxBlock⌉) the largest element of each block of
// MaxBlock elements of x, the last block holding the rest, and reports whether every element
// of x is finite: one pass, eight at a time with AVX2 where the CPU has it. A row of logits
// summarised so tells its argmax (the first maximal element of the first block whose
// largest is the row's) and where its k largest can be (gpt's logitScan). When it reports
// false, dst is meaningless.
func BlockMax(dst, x []float32) (finite bool) {
	n := 0
	bad := uint32(0)
	if HasAVX2 && len(x) >= MaxBlock {
		n = len(x) / MaxBlock
		bad = blockMaxAVX2(&dst[0], &x[0], n)
	}
	return blockMaxGo(dst[n:], x[n*MaxBlock:]) && bad == 0
}

// blockMaxGo is BlockMax one element at a time.
func blockMaxGo(dst, x []float32) (finite bool) {
	finite = true
	for b := range dst {
		block := x[b*MaxBlock : min((b+1)*MaxBlock, len(x))]
		m := block[0]
		for _, v := range block {
			if v > m {
				m = v
			}
			if v-v != 0 { // 0 for every finite v; NaN for NaN and ±Inf
				finite = false
			}
		}
		dst[b] = m
	}
	return finite
}
