//go:build !amd64

package fast

// attentionPacked needs the amd64 micro-kernels; elsewhere attentionForward takes the
// BLAS path.
func attentionPacked(out, att, qkv []float32, B, T, C, NH int, bf16 bool) {
	panic("gpt/internal/fast: no packed attention off amd64")
}

func usePacked(HS int) bool { return false }

// maxAVX2 is never called off amd64 (HasAVX2 is false).
func maxAVX2(x []float32) float32 { panic("gpt/internal/fast: maxAVX2 off amd64") }
