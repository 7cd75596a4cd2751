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

// setGC sets the collector's target and the memory limit for a test,
// restoring the settings it found when the test ends.
func setGC(t *testing.T, percent int, limit int64) {
	p0, l0 := gcSettings()
	t.Cleanup(func() {
		debug.SetGCPercent(p0)
		debug.SetMemoryLimit(l0)
	})
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(limit)
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
			setGC(t, tt.percent, tt.limit)

			h1 := holdGC(0)
			h2 := holdGC(10 << 20)
			p, l := gcSettings()
			if p != tt.wantPercent {
				t.Errorf("during the searches GC percent = %d, want %d", p, tt.wantPercent)
			}
			if tt.wantOwn {
				// The memory in use and the headroom for garbage, or twice
				// the heap alive if that is more: the banks the searches
				// started with are in it already.
				inUse, live := memoryNotGarbage()
				if low, high := inUse+searchHeadroom, inUse+live+searchHeadroom+1<<20; l < low || l > high {
					t.Errorf("memory limit = %d, want between %d and %d", l, low, high)
				}
			} else if l != tt.limit {
				t.Errorf("memory limit = %d, want the user's %d", l, tt.limit)
			}

			// A bank's growth raises the limit by steps of gcReportStep.
			h1.grew(gcReportStep - 1)
			if _, got := gcSettings(); got != l {
				t.Errorf("limit moved to %d before the bank grew by a step", got)
			}
			// Twice the growth is alive, and at most as much again garbage.
			h1.grew(3 * gcReportStep)
			_, grown := gcSettings()
			if low, high := l+2*3*gcReportStep, l+4*3*gcReportStep; tt.wantOwn && (grown < low || grown > high) {
				t.Errorf("limit after the bank grew = %d, want between %d and %d", grown, low, high)
			}
			if !tt.wantOwn && grown != tt.limit {
				t.Errorf("limit after the bank grew = %d, want the user's %d", grown, tt.limit)
			}

			// The first search to end leaves the second's settings, and
			// its bank no room: the limit is back where it started.
			h1.release()
			if got, lim := gcSettings(); got != tt.wantPercent || (tt.wantOwn && lim != l) {
				t.Errorf("after one search: GC percent %d, limit %d; want %d, %d", got, lim, tt.wantPercent, l)
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
	tests := []struct {
		name string
		// collect has a collection run after the garbage is made, which
		// turns it into free memory of the heap.
		collect bool
	}{
		{"garbage since the last collection", false},
		{"garbage a collection freed", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// No collection runs but the test's own.
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			debug.FreeOSMemory()
			before, _ := memoryNotGarbage()
			makeGarbage(64 << 20)
			if tt.collect {
				runtime.GC()
			}
			after, _ := memoryNotGarbage()
			if before <= 0 || after-before > 16<<20 {
				t.Errorf("memory not garbage: %d before 64 MiB of garbage, %d after", before, after)
			}
		})
	}
}

// makeGarbage allocates n bytes, in pieces of 1 MiB, that nothing keeps.
func makeGarbage(n int) {
	for range n >> 20 {
		garbageSink = make([]byte, 1<<20)
	}
	garbageSink = nil
}

func TestSearchLimitStaysAcrossCollections(t *testing.T) {
	// A search that makes garbage and keeps nothing: the memory limit
	// triggers the collections, each frees what was made since the last,
	// and the limits measured after them must not climb. The heap a
	// collection finds alive includes what was allocated while it marked
	// (garbage, here), at most the headroom: the limit may rise by that
	// much. A limit that counted the memory a collection freed rose by
	// the headroom at each one (the garbage filled it before the next).
	setGC(t, 100, math.MaxInt64)
	runtime.GC()

	h := holdGC(0)
	defer h.release()
	_, first := gcSettings()
	gcTune.Lock()
	start := gcTune.measured
	gcTune.Unlock()
	highest := first
	for range 12 {
		makeGarbage(searchHeadroom)
		_, l := gcSettings()
		highest = max(highest, l)
	}
	gcTune.Lock()
	collections := gcTune.measured - start
	gcTune.Unlock()
	if collections < 4 {
		t.Fatalf("%d collections for 12 times the headroom of garbage, want at least 4", collections)
	}
	if grown := highest - first; grown > searchHeadroom {
		t.Errorf("the limit grew by %d MiB over %d collections, from %d to %d", grown>>20, collections, first, highest)
	}
}

func TestHoldGCMeasuresAgainAfterCollection(t *testing.T) {
	setGC(t, 100, math.MaxInt64)
	runtime.GC()

	h := holdGC(0)
	defer h.release()
	gcTune.Lock()
	before := gcTune.live
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
		live := gcTune.live
		gcTune.Unlock()
		if live >= before+250<<20 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("heap alive %d by the limit after a collection with 256 MiB more alive, %d before", live, before)
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

func TestReleasedBankLowersLimit(t *testing.T) {
	// A search ends while another runs: its bank, alive at the last
	// measure, is garbage now, and the limit left to the other search
	// must make room for no more than the heap without it.
	setGC(t, 100, math.MaxInt64)

	h := holdGC(0)
	defer h.release()
	_, alone := gcSettings()
	big := holdGC(512 << 20)
	_, both := gcSettings()
	big.grew(1 << 30)
	_, grown := gcSettings()
	big.release()
	_, after := gcSettings()
	if !(alone <= both && both < grown) {
		t.Errorf("limits %d alone, %d with a second search, %d when its bank grew: want them rising", alone, both, grown)
	}
	if after > alone {
		t.Errorf("limit %d after the second search ended, want at most %d (before it began)", after, alone)
	}
}
