package dsl

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// populateBytes is the size from which a new chunk is faulted in whole,
// by one system call, when it is made.
const populateBytes = 1 << 20

// NewChunk returns an empty chunk with room for n elements, zeroed when
// zero is set; else T must hold no pointers, and its memory is not zeroed
// (see noZeroSlice).
//
// A large search writes hundreds of megabytes once, and most of its
// system time went to the page faults of first touching them: a chunk of
// populateBytes or more (the chunks that fill, every one of a large
// search's) is faulted in by madvise(MADV_POPULATE_WRITE) instead, a
// page at a time inside the kernel rather than one trap per page. On a
// kernel before 5.14 the advice fails, and is ignored: the pages are
// faulted in as they are touched.
//
// The chunk is not backed by transparent huge pages, which it asked for
// before: on the virtual machine that measures BenchmarkEnumerate, a huge
// page's first touch cost more system time than the same memory in 4 KiB
// pages, and far more variably (0.62–1.43 s a run against 0.44–0.50 s;
// docs/results/performance.md, Enumerator, sixth round).
func NewChunk[T any](n int, zero bool) []T {
	var full []T
	if zero {
		full = make([]T, n)
	} else {
		full = noZeroSlice[T](n)
	}
	if size := uintptr(n) * unsafe.Sizeof(*new(T)); size >= populateBytes {
		populate(unsafe.Pointer(unsafe.SliceData(full)), size)
	}
	return full[:0]
}

// populate faults in the whole pages of the size bytes at p.
//
// The call is a raw system call: the search keeps its processor (the
// runtime's P) for the millisecond or two the kernel takes. Through
// unix.Madvise, the runtime's monitor thread took the processor away
// from each call after 20 µs, and woke every 20 µs for a millisecond
// after each (2.2% of BenchmarkEnumerate's CPU samples were sysmon's).
// The price: a stop of the world for the collector waits for the call to
// end. The pages are written by the kernel alone.
func populate(p unsafe.Pointer, size uintptr) {
	page := uintptr(unix.Getpagesize())
	skip := (page - uintptr(p)%page) % page
	if size <= skip {
		return
	}
	start := uintptr(p) + skip
	_, _, _ = unix.RawSyscall(unix.SYS_MADVISE, start, (size-skip)&^(page-1), unix.MADV_POPULATE_WRITE)
}
