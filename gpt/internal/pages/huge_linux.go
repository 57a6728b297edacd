package pages

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on the platforms Linux runs this on.
const hugePage = 2 << 20

// Huge asks Linux to back the whole 2 MB pages inside s with huge pages when they are first
// written (madvise MADV_HUGEPAGE, which transparent huge pages in "madvise" mode, the common
// default, wait for). It changes no byte of s. The request is advice: where the kernel has no
// transparent huge pages, or s holds no whole 2 MB page, nothing changes and the faults are
// per 4 kB page as before.
func Huge[T any](s []T) {
	if len(s) == 0 {
		return
	}
	start := uintptr(unsafe.Pointer(&s[0]))
	end := start + uintptr(len(s))*unsafe.Sizeof(s[0])
	lo, hi := (start+hugePage-1)&^(hugePage-1), end&^(hugePage-1)
	if lo >= hi {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(&s[0]), lo-start)), hi-lo)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // advice: an error leaves the 4 kB pages
}
