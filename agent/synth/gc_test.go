package synth

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcSettings reads the collector's target and the memory limit.
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

func TestHoldGC(t *testing.T) {
	tests := []struct {
		name string
		// The user's settings before the searches.
		percent int
		limit   int64
		// What the searches run under: the collector's target, and whether
		// the memory limit is theirs (searchLimit) or the user's.
		wantPercent int
		wantOwn     bool
	}{
		{"defaults", 100, math.MaxInt64, -1, true},
		{"lower target", 50, math.MaxInt64, -1, true},
		{"user limit", 100, 8 << 30, searchGCPercent, false},
		{"user limit, higher target", 400, 8 << 30, 400, false},
		{"collector off", -1, math.MaxInt64, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p0, l0 := gcSettings()
			defer func() {
				debug.SetGCPercent(p0)
				debug.SetMemoryLimit(l0)
			}()
			debug.SetGCPercent(tt.percent)
			debug.SetMemoryLimit(tt.limit)

			h1 := holdGC(0)
			h2 := holdGC(10 << 20)
			p, l := gcSettings()
			if p != tt.wantPercent {
				t.Errorf("during the searches GC percent = %d, want %d", p, tt.wantPercent)
			}
			if tt.wantOwn {
				inUse, _ := memoryNotGarbage()
				if want := gcTune.base + 2*(10<<20); l != want {
					t.Errorf("memory limit = %d, want %d (base %d)", l, want, gcTune.base)
				}
				if gcTune.base < inUse+searchHeadroom {
					t.Errorf("base = %d, want at least the memory in use %d and the headroom", gcTune.base, inUse)
				}
			} else if l != tt.limit {
				t.Errorf("memory limit = %d, want the user's %d", l, tt.limit)
			}

			// A bank's growth raises the limit by steps of gcReportStep.
			h1.grew(gcReportStep - 1)
			if _, got := gcSettings(); got != l {
				t.Errorf("limit moved to %d before the bank grew by a step", got)
			}
			h1.grew(3 * gcReportStep)
			_, grown := gcSettings()
			if tt.wantOwn && grown != l+2*3*gcReportStep {
				t.Errorf("limit after the bank grew = %d, want %d", grown, l+2*3*gcReportStep)
			}
			if !tt.wantOwn && grown != tt.limit {
				t.Errorf("limit after the bank grew = %d, want the user's %d", grown, tt.limit)
			}

			// The first search to end leaves the second's settings, less its
			// bank.
			h1.release()
			if p, l := gcSettings(); p != tt.wantPercent || (tt.wantOwn && l != gcTune.base+2*(10<<20)) {
				t.Errorf("after one search: GC percent %d, limit %d", p, l)
			}
			h2.release()
			if p, l := gcSettings(); p != tt.percent || l != tt.limit {
				t.Errorf("after both searches: GC percent %d, limit %d; want the user's %d, %d", p, l, tt.percent, tt.limit)
			}
			if gcTune.users != 0 || gcTune.banks != 0 {
				t.Errorf("left %d users, %d bytes of banks", gcTune.users, gcTune.banks)
			}
		})
	}
}

func TestHoldGCNil(t *testing.T) {
	// An enumerator outside grow has no hold: its growth reports nothing.
	var h *gcHold
	h.grew(1 << 40)
}

func TestMemoryNotGarbage(t *testing.T) {
	// Garbage allocated after a collection is not counted. No collection
	// runs while it is made: one would turn it into free memory of the
	// heap, which counts.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	debug.FreeOSMemory()
	before, _ := memoryNotGarbage()
	for range 64 {
		garbageSink = make([]byte, 1<<20)
	}
	garbageSink = nil
	after, _ := memoryNotGarbage()
	if before <= 0 || after-before > 16<<20 {
		t.Errorf("memory not garbage: %d before 64 MiB of garbage, %d after", before, after)
	}
}

func TestHoldGCMeasuresAgainAfterCollection(t *testing.T) {
	p0, l0 := gcSettings()
	defer func() {
		debug.SetGCPercent(p0)
		debug.SetMemoryLimit(l0)
	}()
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	runtime.GC()

	h := holdGC(0)
	defer h.release()
	gcTune.Lock()
	before := gcTune.base
	gcTune.Unlock()
	// 256 MiB more alive than when the search started: a limit that
	// stayed where it was would leave too little room above it.
	alive := make([][]byte, 256)
	for i := range alive {
		alive[i] = make([]byte, 1<<20)
	}
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for {
		gcTune.Lock()
		base := gcTune.base
		gcTune.Unlock()
		if base >= before+256<<20 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("base %d after a collection with 256 MiB more alive, %d before", base, before)
		}
		time.Sleep(10 * time.Millisecond)
	}
	_, live := memoryNotGarbage()
	if _, l := gcSettings(); l < live+searchHeadroom {
		t.Errorf("memory limit %d, below the heap alive %d and the headroom", l, live)
	}
	runtime.KeepAlive(alive)
}

// garbageSink keeps the compiler from dropping an allocation.
var garbageSink []byte
