package synth

import (
	"syscall"
	"unsafe"
)

// hugePageBytes is the size of a transparent huge page on the platforms
// Go runs Linux on with them (amd64, arm64 with 4 KiB pages).
const hugePageBytes = 2 << 20

// newChunk returns an empty chunk with room for n elements. A chunk of a
// huge page or more starts on a huge page's boundary (the memory before
// it is never touched, so it costs address space only) and the kernel is
// asked to back it by transparent huge pages. A large search keeps
// hundreds of megabytes of values it writes once: with 4 KiB pages a
// third of its CPU time went to the page faults of first touching them
// (BenchmarkEnumerate: 205,000 faults, 1.6 s of 5.4 s) and more to the
// TLB misses of reading them. The advice matters on kernels whose
// transparent huge pages are set to "madvise" (with "always" they are
// used anyway, with "never" not at all); it is ignored when it fails.
//
// The chunk is zeroed when zero is set; else T must hold no pointers, and
// its memory is not zeroed (see noZeroSlice).
func newChunk[T any](n int, zero bool) []T {
	elem := unsafe.Sizeof(*new(T))
	mk := func(n int) []T { return make([]T, n) }
	if !zero {
		mk = noZeroSlice[T]
	}
	if uintptr(n)*elem < hugePageBytes {
		return mk(n)[:0]
	}
	// Fresh memory from the heap is not touched by make: the advice
	// comes before the first fault.
	full := mk(n + int(hugePageBytes/elem) + 1)
	p := unsafe.Pointer(unsafe.SliceData(full))
	size := uintptr(len(full)) * elem
	page := uintptr(syscall.Getpagesize())
	skip := (page - uintptr(p)%page) % page
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, skip)), (size-skip)&^(page-1)), syscall.MADV_HUGEPAGE)
	start := int(((hugePageBytes-uintptr(p)%hugePageBytes)%hugePageBytes + elem - 1) / elem)
	return full[start : start : start+n]
}
