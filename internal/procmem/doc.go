// Package procmem measures the memory of the reconstruct process: its
// resident set now and at its peak (the kernel's high-water mark), and
// the Go heap, sampled while a run or a sweep works so that a report can
// say the most either reached beside the CPU time it took.
package procmem
