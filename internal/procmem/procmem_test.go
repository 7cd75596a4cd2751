package procmem

import (
	"runtime"
	"testing"
	"time"
)

var (
	sink    [][]byte
	cpuSink uint64
)

// TestWatchSeesAnAllocation allocates 64 MiB inside a span and frees it:
// the span's heap peak and the watch's hold it, a span opened after does
// not, and the resident set's peak is at least what was touched.
func TestWatchSeesAnAllocation(t *testing.T) {
	runtime.GC()
	w := Start(time.Millisecond)
	before := Now()
	if before.RSS <= 0 || before.PeakRSS < before.RSS || before.Heap <= 0 {
		t.Fatalf("Now() = %+v, want a resident set within its peak and a heap", before)
	}
	sp := w.Begin()
	const size = 64 << 20
	for range 64 {
		b := make([]byte, size/64)
		for i := range b {
			b[i] = 1
		}
		sink = append(sink, b)
	}
	in := sp.End()
	sink = nil
	runtime.GC()
	after := w.Begin().End()
	all := w.Stop()
	if in.Heap < before.Heap+size {
		t.Errorf("span's heap peak %d, want at least %d (%d before, %d allocated)", in.Heap, before.Heap+size, before.Heap, size)
	}
	if in.RSS < size {
		t.Errorf("span's resident peak %d, want at least %d touched", in.RSS, size)
	}
	if after.Heap >= in.Heap-size/2 {
		t.Errorf("span after the memory was freed peaks at %d of heap, the one that held it %d", after.Heap, in.Heap)
	}
	if all.Heap < in.Heap || all.RSS < in.RSS {
		t.Errorf("watch's peak %+v below a span's %+v", all, in)
	}
}

func TestCPU(t *testing.T) {
	self0, _ := CPU()
	x := uint64(1)
	for i := range 50_000_000 {
		x = x*6364136223846793005 + uint64(i)
	}
	if self, _ := CPU(); self <= self0 {
		t.Errorf("CPU time %v after fifty million steps, %v before", self, self0)
	}
	cpuSink = x
}

func TestKB(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"   1234 kB", 1234 << 10}, {"", 0}, {" x kB", 0}} {
		if got := kB([]byte(tc.in)); got != tc.want {
			t.Errorf("kB(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
