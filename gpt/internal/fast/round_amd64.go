package fast

// roundBF16AVX2 is RoundBF16 over len(x), a multiple of 8 and not 0 (round_amd64.s).
func roundBF16AVX2(x []float32)

// toBF16sAVX512BF16 rounds src to bfloat16 into dst, n of them (a multiple of 16; round_amd64.s).
//
//go:noescape
func toBF16sAVX512BF16(dst *uint16, src *float32, n int)
