package fast

// roundBF16AVX2 is RoundBF16 over len(x), a multiple of 8 and not 0 (round_amd64.s).
func roundBF16AVX2(x []float32)
