package machine

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Info is a machine as a record keeps it.
type Info struct {
	Host      string `json:"host,omitempty"`
	OS        string `json:"os"`
	Arch      string `json:"arch"`
	CPUs      int    `json:"cpus"`
	MemoryMB  int64  `json:"memory_mb,omitempty"`
	GoVersion string `json:"go_version"`
}

// Describe describes this machine; what cannot be read is left out.
func Describe() Info {
	host, _ := os.Hostname()
	return Info{Host: host, OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), MemoryMB: memoryMB(), GoVersion: runtime.Version()}
}

// memoryMB is the machine's memory from /proc/meminfo (0 when unknown).
func memoryMB() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb >> 10
			}
		}
	}
	return 0
}

// Load is the load average over 1, 5 and 15 minutes from /proc/loadavg
// (nil when unknown).
func Load() []float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	fields := strings.Fields(string(data))
	if len(fields) < 3 {
		return nil
	}
	out := make([]float64, 3)
	for i := range out {
		v, err := strconv.ParseFloat(fields[i], 64)
		if err != nil {
			return nil
		}
		out[i] = v
	}
	return out
}

// String describes the machine in a few words: "vm (linux/amd64, 2 CPUs,
// 24105 MiB, go1.26.8)"; "—" for none.
func (m *Info) String() string {
	if m == nil {
		return "—"
	}
	s := fmt.Sprintf("%s/%s, %d CPUs", m.OS, m.Arch, m.CPUs)
	if m.MemoryMB > 0 {
		s += fmt.Sprintf(", %d MiB", m.MemoryMB)
	}
	s += ", " + m.GoVersion
	if m.Host != "" {
		return m.Host + " (" + s + ")"
	}
	return s
}
