package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/reconstruct/reconstruct/internal/atomicfile"
)

// profiler records a CPU and an allocation profile of the reconstruct
// process (`run --profile DIR`), and the CPU time of the sandboxes it ran
// (its reaped child processes: the process sandbox's harnesses), for
// `go tool pprof`.
type profiler struct {
	dir   string
	cpu   bytes.Buffer
	start time.Time
	self0 time.Duration
	kids0 time.Duration
}

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
	p.self0, p.kids0 = cpuTimes()
	if err := pprof.StartCPUProfile(&p.cpu); err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	return p, nil
}

// stop ends the CPU profile, writes both profiles into the directory and a
// summary line on w.
func (p *profiler) stop(w io.Writer) error {
	pprof.StopCPUProfile()
	wall := time.Since(p.start)
	self, kids := cpuTimes()
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
	_, err := fmt.Fprintf(w, "profile: wall %.2fs, reconstruct CPU %.2fs, sandbox processes' CPU %.2fs; wrote %s and %s (go tool pprof -top FILE)\n",
		wall.Seconds(), (self - p.self0).Seconds(), (kids - p.kids0).Seconds(), filepath.Join(p.dir, profileCPU), filepath.Join(p.dir, profileAllocs))
	return err
}

// cpuTimes is the CPU time (user and system) of this process and of its
// reaped children.
func cpuTimes() (self, children time.Duration) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) == nil {
		children = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return self, children
}
