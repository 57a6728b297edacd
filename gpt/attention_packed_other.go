//go:build !amd64

package gpt

// attentionPacked needs the amd64 micro-kernels; elsewhere attentionForward takes the
// BLAS path.
func attentionPacked(out, att, qkv []float32, B, T, C, NH int) {
	panic("gpt: no packed attention off amd64")
}

func usePacked(HS int) bool { return false }

// maxAVX2 is never called off amd64 (hasAVX2 is false).
func maxAVX2(x []float32) float32 { panic("gpt: maxAVX2 off amd64") }
