//go:build !amd64

package gpt

func gemvRowsAVX2(y, x, w *float32, rows, cols, ldw int) { panic("gpt: no AVX2 off amd64") }
func gemvDotAVX2(y, x, w *float32, rows, cols, ldw int)  { panic("gpt: no AVX2 off amd64") }
