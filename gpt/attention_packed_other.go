//go:build !amd64

package gpt

// attentionPacked needs the amd64 micro-kernels; elsewhere attentionForward takes the
// BLAS path.
func attentionPacked(out, att, qkv []float32, B, T, C, NH int) {
	panic("gpt: no packed attention off amd64")
}

func usePacked(HS int) bool { return false }
