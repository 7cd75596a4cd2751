package dsl

import (
	"errors"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// populate faults in exactly the whole pages inside the range it is
// given, without a page being touched by the process itself.
func TestPopulateFaultsInWholePages(t *testing.T) {
	page := unix.Getpagesize()
	probe, err := unix.Mmap(-1, 0, page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	err = unix.Madvise(probe, unix.MADV_POPULATE_WRITE)
	_ = unix.Munmap(probe)
	if errors.Is(err, unix.EINVAL) {
		t.Skip("the kernel has no MADV_POPULATE_WRITE (Linux 5.14): populate leaves the pages to be faulted as they are touched")
	}
	tests := []struct {
		name         string
		offset, size int
		want         []bool // resident, page by page, of 4 pages
	}{
		{"whole pages", 0, 4 * page, []bool{true, true, true, true}},
		{"the middle two", page, 2 * page, []bool{false, true, true, false}},
		{"unaligned start", 100, 2 * page, []bool{false, true, false, false}},
		{"unaligned end", 0, 2*page + 100, []bool{true, true, false, false}},
		{"less than a page", 100, page - 200, []bool{false, false, false, false}},
		{"nothing", 0, 0, []bool{false, false, false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem, err := unix.Mmap(-1, 0, 4*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
			if err != nil {
				t.Fatalf("mmap: %v", err)
			}
			defer unix.Munmap(mem)
			populate(unsafe.Pointer(&mem[tt.offset]), uintptr(tt.size))
			resident := make([]byte, 4)
			if _, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&mem[0])), uintptr(len(mem)), uintptr(unsafe.Pointer(&resident[0]))); errno != 0 {
				t.Fatalf("mincore: %v", errno)
			}
			for i, want := range tt.want {
				if got := resident[i]&1 == 1; got != want {
					t.Errorf("page %d resident: %v, want %v", i, got, want)
				}
			}
		})
	}
}
