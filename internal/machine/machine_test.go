package machine

import (
	"runtime"
	"testing"
)

func TestDescribe(t *testing.T) {
	m := Describe()
	if m.OS != runtime.GOOS || m.Arch != runtime.GOARCH || m.CPUs != runtime.NumCPU() || m.GoVersion != runtime.Version() {
		t.Errorf("Describe() = %+v", m)
	}
	if runtime.GOOS == "linux" && m.MemoryMB <= 0 {
		t.Errorf("memory not read: %+v", m)
	}
	if l := Load(); runtime.GOOS == "linux" && (len(l) != 3 || l[0] < 0) {
		t.Errorf("Load() = %v", l)
	}
}
