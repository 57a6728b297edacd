package gpt

// setAVX2 lets a test run the scalar fallbacks on a CPU that has AVX2.
func setAVX2(v bool) { hasAVX2 = v }
