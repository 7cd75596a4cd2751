package storetest

import (
	"syscall"
	"testing"
	"time"
)

// ReportCPU starts measuring the CPU time (user and system, every thread)
// the process uses; the function it returns reports it per operation as
// cpu-ns/op. The bank's benchmarks run on shared machines, where the wall
// time of an operation depends on everything else running and its CPU
// time much less:
//
//	defer storetest.ReportCPU(b)()
//	for b.Loop() { … }
func ReportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
