//go:build !amd64

package fast

// The decode walk is never taken off amd64 (useDecodeWalk: HasAVX2 is false).

func headDotsAVX2(s, q, k *float32, rows, heads, hs, ld, lds int) {
	panic("gpt/internal/fast: no AVX2 off amd64")
}
func headDots16AVX2(s, q *float32, k *uint16, rows, heads, hs, ld, lds int) {
	panic("gpt/internal/fast: no AVX2 off amd64")
}
func headRowsAVX2(out, p, v *float32, rows, heads, hs, ld, lds int) {
	panic("gpt/internal/fast: no AVX2 off amd64")
}
func headRows16AVX2(out, p *float32, v *uint16, rows, heads, hs, ld, lds int) {
	panic("gpt/internal/fast: no AVX2 off amd64")
}
func headDotsAVX512(s, q, k *float32, rows, heads, hs, ld, lds int) {
	panic("gpt/internal/fast: no AVX-512 off amd64")
}
func headDots16AVX512BF16(s *float32, qb, k *uint16, rows, heads, hs, ld, lds int) {
	panic("gpt/internal/fast: no AVX-512 off amd64")
}
func headRowsAVX512(out, p, v *float32, rows, heads, hs, ld, lds int) {
	panic("gpt/internal/fast: no AVX-512 off amd64")
}
func headRows16AVX512(out, p *float32, v *uint16, rows, heads, hs, ld, lds int) {
	panic("gpt/internal/fast: no AVX-512 off amd64")
}
