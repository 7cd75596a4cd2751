package procmem

import (
	"bufio"
	"bytes"
	"os"
	"runtime/metrics"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Sample is the process's memory at one moment, in bytes (0 where the
// system does not say).
type Sample struct {
	// RSS is the resident set now, PeakRSS its high-water mark since the
	// process started.
	RSS, PeakRSS int64
	// Heap is the Go heap in use: live objects and the garbage not yet
	// collected.
	Heap int64
}

// Now reads the process's memory.
func Now() Sample {
	s := Sample{Heap: heap()}
	s.RSS, s.PeakRSS = statusRSS()
	if s.PeakRSS == 0 {
		var ru syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
			s.PeakRSS = maxrssBytes(ru.Maxrss)
		}
	}
	return s
}

var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

var heapMu sync.Mutex

// heap is the bytes of the Go heap's objects, alive or not yet collected.
func heap() int64 {
	heapMu.Lock()
	defer heapMu.Unlock()
	metrics.Read(heapSample)
	if heapSample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(heapSample[0].Value.Uint64())
}

// statusRSS reads VmRSS and VmHWM from /proc/self/status (0, 0 where
// there is none).
func statusRSS() (rss, hwm int64) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case bytes.HasPrefix(line, []byte("VmRSS:")):
			rss = kB(line[len("VmRSS:"):])
		case bytes.HasPrefix(line, []byte("VmHWM:")):
			hwm = kB(line[len("VmHWM:"):])
		}
	}
	return rss, hwm
}

// kB parses "   1234 kB" into bytes.
func kB(field []byte) int64 {
	f := bytes.Fields(field)
	if len(f) == 0 {
		return 0
	}
	n, err := strconv.ParseInt(string(f[0]), 10, 64)
	if err != nil {
		return 0
	}
	return n << 10
}

// Peak is the most a process's memory reached over a time, sampled.
type Peak struct {
	// RSS is the resident set's peak sampled; Heap the Go heap's.
	RSS, Heap int64
}

func (p *Peak) add(s Sample) {
	p.RSS, p.Heap = max(p.RSS, s.RSS), max(p.Heap, s.Heap)
}

// Watch samples the process's memory every interval until Stop, keeping
// the peaks of every span opened (Begin) and of the whole watch. A
// sample every interval misses a peak shorter than it; the process's
// high-water mark (Sample.PeakRSS) does not, for the process as a whole.
type Watch struct {
	mu    sync.Mutex
	all   Peak
	spans map[*Span]struct{}
	stop  chan struct{}
	done  chan struct{}
}

// Span is the peak of the memory while one piece of work ran (a task of
// a sweep): the process's, other work running beside it included.
type Span struct {
	w    *Watch
	peak Peak
}

// Start starts a watch sampling every interval.
func Start(interval time.Duration) *Watch {
	w := &Watch{spans: map[*Span]struct{}{}, stop: make(chan struct{}), done: make(chan struct{})}
	w.sample()
	go func() {
		defer close(w.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-t.C:
				w.sample()
			}
		}
	}()
	return w
}

func (w *Watch) sample() {
	s := Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all.add(s)
	for sp := range w.spans {
		sp.peak.add(s)
	}
}

// Begin opens a span: its peak counts from now until End. A span of no
// watch (w nil) has the memory when it began and ended only.
func (w *Watch) Begin() *Span {
	sp := &Span{w: w}
	sp.peak.add(Now())
	if w == nil {
		return sp
	}
	w.mu.Lock()
	w.spans[sp] = struct{}{}
	w.mu.Unlock()
	return sp
}

// End closes the span and returns its peak, a last sample included.
func (sp *Span) End() Peak {
	s := Now()
	w := sp.w
	if w == nil {
		sp.peak.add(s)
		return sp.peak
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.spans, sp)
	sp.peak.add(s)
	w.all.add(s)
	return sp.peak
}

// Stop ends the watch and returns the peak of the whole watch, with the
// process's high-water mark for its resident set when the system keeps
// one (a peak between two samples is then not missed).
func (w *Watch) Stop() Peak {
	close(w.stop)
	<-w.done
	s := Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all.add(s)
	out := w.all
	out.RSS = max(out.RSS, s.PeakRSS)
	return out
}

// CPU is the CPU time (user and system) of this process and of its
// reaped children (the process sandbox's harnesses).
func CPU() (self, children time.Duration) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) == nil {
		children = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return self, children
}

// MB is bytes in mebibytes, for reports.
func MB(b int64) float64 { return float64(b) / (1 << 20) }
