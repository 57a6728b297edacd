//go:build !amd64

package fast

func blockMaxAVX2(dst, x *float32, blocks int) uint32 {
	panic("gpt/internal/fast: no AVX2 off amd64")
}
