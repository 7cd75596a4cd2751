package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/reconstruct/reconstruct/internal/atomicfile"
	"github.com/reconstruct/reconstruct/internal/procmem"
)

// profiler records a CPU and an allocation profile of the reconstruct
// process (`run --profile DIR`), and the CPU time of the sandboxes it ran
// (its reaped child processes: the process sandbox's harnesses), for
// `go tool pprof`, and the process's peak memory beside them.
type profiler struct {
	dir   string
	cpu   bytes.Buffer
	start time.Time
	self0 time.Duration
	kids0 time.Duration
	mem   *procmem.Watch
}

// memSampleEvery is how often a profiled run's memory is sampled (the Go
// heap's peak; the resident set's is the kernel's high-water mark).
const memSampleEvery = 50 * time.Millisecond

// Profile files written by `run --profile DIR`.
const (
	profileCPU    = "cpu.pprof"
	profileAllocs = "allocs.pprof"
)

// startProfile creates dir (an error names it) and starts the CPU profile.
func startProfile(dir string) (*profiler, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	for _, name := range []string{profileCPU, profileAllocs} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && fi.IsDir() {
			return nil, fmt.Errorf("--profile: %s is a directory", filepath.Join(dir, name))
		}
	}
	p := &profiler{dir: dir, start: time.Now()}
	p.self0, p.kids0 = procmem.CPU()
	if err := pprof.StartCPUProfile(&p.cpu); err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	p.mem = procmem.Start(memSampleEvery)
	return p, nil
}

// stop ends the CPU profile, writes both profiles into the directory and a
// summary line on w.
func (p *profiler) stop(w io.Writer) error {
	pprof.StopCPUProfile()
	wall := time.Since(p.start)
	self, kids := procmem.CPU()
	peak := p.mem.Stop()
	runtime.GC() // the allocation profile is as of the last collection
	var allocs bytes.Buffer
	if err := pprof.Lookup("allocs").WriteTo(&allocs, 0); err != nil {
		return fmt.Errorf("--profile: %w", err)
	}
	for name, data := range map[string][]byte{profileCPU: p.cpu.Bytes(), profileAllocs: allocs.Bytes()} {
		if err := atomicfile.Write(filepath.Join(p.dir, name), data, 0o644); err != nil {
			return fmt.Errorf("--profile: %w", err)
		}
	}
	_, err := fmt.Fprintf(w, "profile: wall %.2fs, reconstruct CPU %.2fs, sandbox processes' CPU %.2fs, peak memory %.0f MiB resident, %.0f MiB Go heap; wrote %s and %s (go tool pprof -top FILE)\n",
		wall.Seconds(), (self - p.self0).Seconds(), (kids - p.kids0).Seconds(), procmem.MB(peak.RSS), procmem.MB(peak.Heap), filepath.Join(p.dir, profileCPU), filepath.Join(p.dir, profileAllocs))
	return err
}
