//go:build openblas

// Package openblas holds the one cgo call the gpt package needs beyond gonum's netlib
// bindings: setting OpenBLAS's thread count. (A package with cgo cannot also hold Go
// assembly, which gpt has.)
package openblas

/*
#cgo LDFLAGS: -lopenblas
void openblas_set_num_threads(int num_threads);
*/
import "C"

// SetThreads sets how many threads OpenBLAS runs each product on.
func SetThreads(n int) { C.openblas_set_num_threads(C.int(n)) }
