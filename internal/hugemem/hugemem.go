// Package hugemem makes large arrays that the kernel backs with huge pages
// where it can.
//
// A run on a million nodes touches hundreds of megabytes of per-node and
// per-link arrays, much of it out of order. With the usual 4 KiB pages every
// such touch needs its own address translation, and the processor's TLB
// holds a few thousand: most touches then walk the page tables, and the
// first touch of each page costs a page fault (with page-table isolation,
// several microseconds in a virtual machine). Linux's transparent huge pages
// back memory with 2 MiB pages instead, 512 times fewer translations and
// faults, but on most systems (the "madvise" setting) only for memory the
// program asks for, and the Go runtime does not ask for its heap. Make asks
// (madvise MADV_HUGEPAGE) for the 2 MiB-aligned inside of each array large
// enough to gain from it, before the array is first touched.
//
// It changes nothing a program can observe but speed: the memory is the
// same Go slice, zeroed, collected as usual. Where huge pages are off, or
// not on Linux, it is plain make. Arrays are fully touched by the code that
// makes them, so resident memory grows by at most the unaligned ends.
//
// Layer 0: it imports no package of elect (docs/architecture.md).
package hugemem

// Min is the smallest array, in bytes, that Make advises: below it an
// array spans too few huge pages to matter.
const Min = 4 << 20

// Make returns make([]T, n), advised for huge pages when it is at least Min
// bytes.
func Make[T any](n int) []T {
	s := make([]T, n)
	Advise(s)
	return s
}
