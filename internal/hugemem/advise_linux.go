package hugemem

import (
	"syscall"
	"unsafe"
)

const (
	hugePage     = 2 << 20
	madvHugepage = 14 // MADV_HUGEPAGE
)

// Advise asks for huge pages for the 2 MiB-aligned inside of s's backing
// array, if it is at least Min bytes. Refusal (huge pages off, an old
// kernel) is not an error: the memory works the same either way.
func Advise[T any](s []T) {
	var zero T
	size := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if size < Min {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	lo := (start + hugePage - 1) &^ (hugePage - 1)
	hi := (start + size) &^ (hugePage - 1)
	if hi > lo {
		syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, madvHugepage)
	}
}
