//go:build !amd64

package gpt

// setAVX2: off amd64 there is only the scalar path.
func setAVX2(bool) {}
