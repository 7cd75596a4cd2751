package sandboxtest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ProcCPU is the CPU time of process pid itself and of its reaped children,
// from /proc/PID/stat (in USER_HZ ticks: 10 ms resolution, so a benchmark
// reports it averaged over many operations).
func ProcCPU(tb testing.TB, pid int) (self, children time.Duration) {
	tb.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		tb.Fatal(err)
	}
	// Fields after the command name: state is field 3; utime, stime,
	// cutime, cstime are fields 14-17 (1-based), in clock ticks.
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	var ticks [4]int64
	for i, v := range f[11:15] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			tb.Fatal(err)
		}
		ticks[i] = n
	}
	tick := time.Second / 100 // USER_HZ
	return time.Duration(ticks[0]+ticks[1]) * tick, time.Duration(ticks[2]+ticks[3]) * tick
}

// goCPU is the CPU time of this (the orchestrator's) process.
func goCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// CPUMeter reports, per operation of a benchmark, where the CPU time went:
// the Go side (this process), the harness process ("server") and the
// processes it reaped ("child": the children that ran the batches, and
// the spare children forked and warmed up for the next ones), and their
// sum. The machine may be shared: CPU time is what a figure taken on a
// loaded machine still means.
type CPUMeter struct {
	b                      *testing.B
	pid                    func() int
	goStart, self0, child0 time.Duration
}

// StartCPU starts measuring; pid returns the harness's pid (read again at
// the end).
func StartCPU(b *testing.B, pid func() int) *CPUMeter {
	m := &CPUMeter{b: b, pid: pid}
	m.goStart = goCPU(b)
	m.self0, m.child0 = ProcCPU(b, pid())
	return m
}

// Report adds the metrics go-cpu-ms/op, server-cpu-ms/op, child-cpu-ms/op,
// harness-cpu-ms/op (server and child) and cpu-ms/op (all of it).
func (m *CPUMeter) Report() {
	g := goCPU(m.b) - m.goStart
	self, child := ProcCPU(m.b, m.pid())
	self -= m.self0
	child -= m.child0
	per := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(m.b.N) }
	m.b.ReportMetric(per(self+child), "harness-cpu-ms/op")
	m.b.ReportMetric(per(self), "server-cpu-ms/op")
	m.b.ReportMetric(per(child), "child-cpu-ms/op")
	m.b.ReportMetric(per(g), "go-cpu-ms/op")
	m.b.ReportMetric(per(g+self+child), "cpu-ms/op")
}
