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

			// A session bounded to 512 MiB, and a search without a bound
			// holding 10 MiB already.
			const bound = 512 << 20
			session := sessionBudget(bound)
			free := newMemBudget(0, 0)
			free.Charge(10 << 20)
			defer session.close()
			defer free.close()
			holdGC(session)
			holdGC(free)
			p, l := gcSettings()
			if p != tt.wantPercent {
				t.Errorf("during the searches GC percent = %d, want %d", p, tt.wantPercent)
			}
			if tt.wantOwn {
				// The memory in use, the session's whole bound, and the
				// unbounded search's headroom (its 10 MiB may be counted
				// in the heap alive already, or not); or, below that, the
				// cap of a bounded session: its bound and sessionSlack,
				// less processReserve, and what the unbounded one counts.
				// The memory in use as the limit's base measured it, or as
				// read now: a collection in between moves one from the other.
				inUse, _ := memoryNotGarbage()
				gcTune.Lock()
				charged, base := gcTune.charged, gcTune.other+gcTune.live
				gcTune.Unlock()
				low := min(min(inUse, base)-charged+bound+searchHeadroom, bound+sessionSlack-processReserve+10<<20)
				if high := max(inUse, base) + charged + bound + searchHeadroom + 1<<20; l < low || l > high {
					t.Errorf("memory limit = %d, want between %d and %d", l, low, high)
				}
			} else if l != tt.limit {
				t.Errorf("memory limit = %d, want the user's %d", l, tt.limit)
			}

			// The session's bank growing stays within its bound: the
			// limit does not move.
			session.sub(0).Charge(3 * gcReportStep)
			if _, got := gcSettings(); got != l {
				t.Errorf("limit moved from %d to %d while the bounded session grew within its bound", l, got)
			}
			// The unbounded search's growth is alive, and as much again
			// garbage may be.
			free.Charge(300 << 20)
			_, grown := gcSettings()
			if low, high := l+300<<20, l+2*310<<20; tt.wantOwn && (grown < low || grown > high) {
				t.Errorf("limit after the unbounded search grew = %d, want between %d and %d", grown, low, high)
			}
			if !tt.wantOwn && grown != tt.limit {
				t.Errorf("limit after the bank grew = %d, want the user's %d", grown, tt.limit)
			}

			// The unbounded search ends and gives its memory back: the
			// session's settings stay, the limit falls to the session's
			// alone (its memory in use and its bound), the unbounded
			// search's memory and headroom gone.
			// The memory in use is the one the limit was computed from
			// (measured at the last collection or when the searches
			// began), not a new reading: garbage collected since would
			// make a new one smaller than the limit's base.
			// Budgets of other tests that still hold memory (others) count
			// in the limit too: a collection since the searches began
			// leaves their count in it even where the heap it measured
			// holds less than they counted.
			releaseGC(free)
			free.close()
			gcTune.Lock()
			base := gcTune.other + gcTune.live
			others := max(gcTune.charged-3*gcReportStep, 0)
			gcTune.Unlock()
			inUse, _ := memoryNotGarbage()
			alone := max(inUse, base) + others + bound + 1<<20
			if got, lim := gcSettings(); got != tt.wantPercent || (tt.wantOwn && lim > alone) {
				t.Errorf("after one search: GC percent %d, limit %d; want %d, at most %d", got, lim, tt.wantPercent, alone)
			}
			releaseGC(session)
			if p, l := gcSettings(); p != tt.percent || l != tt.limit {
				t.Errorf("after both searches: GC percent %d, limit %d; want the user's %d, %d", p, l, tt.percent, tt.limit)
			}
			if gcTune.users != 0 || len(gcTune.running) != 0 {
				t.Errorf("left %d users, %d running budgets", gcTune.users, len(gcTune.running))
			}
		})
	}
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

	b := newMemBudget(0, 0)
	holdGC(b)
	defer releaseGC(b)
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

	b := newMemBudget(0, 0)
	holdGC(b)
	defer releaseGC(b)
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
	// A search without a bound ends while a session searches: its bank,
	// alive at the last measure, is garbage now, and the limit left to
	// the session must make room for no more than the heap without it.
	setGC(t, 100, math.MaxInt64)

	session := sessionBudget(256 << 20)
	holdGC(session)
	defer releaseGC(session)
	defer session.close()
	_, alone := gcSettings()
	big := newMemBudget(0, 0)
	big.Charge(512 << 20)
	holdGC(big)
	_, both := gcSettings()
	big.Charge(1 << 30)
	_, grown := gcSettings()
	releaseGC(big)
	big.close()
	_, after := gcSettings()
	if !(alone <= both && both < grown) {
		t.Errorf("limits %d alone, %d with a second search, %d when its bank grew: want them rising", alone, both, grown)
	}
	if after > alone {
		t.Errorf("limit %d after the second search ended, want at most %d (before it began)", after, alone)
	}
}

// A root budget dropped without close gives its count back once the
// collector finds it unreachable: an agent nobody closed leaves the
// limit no room that no memory fills.
func TestDroppedBudgetForgotten(t *testing.T) {
	gcTune.Lock()
	before := gcTune.charged
	gcTune.Unlock()
	func() {
		b := newMemBudget(0, 0)
		b.sub(0).Charge(64 << 20)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		gcTune.Lock()
		now := gcTune.charged
		gcTune.Unlock()
		if now == before {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("charged %d after the budget was dropped, %d before it", now, before)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSearchLimitCappedPerRun checks the memory limit while bounded
// sessions search: at most each one's bound and sessionSlack, less
// processReserve, whatever room the budgets' count would give; and
// never below the heap alive, where the collector would run without end.
func TestSearchLimitCappedPerRun(t *testing.T) {
	setGC(t, 100, math.MaxInt64)
	const bound = 256 << 20
	a, b := sessionBudget(bound), sessionBudget(bound)
	defer a.close()
	defer b.close()

	holdGC(a)
	_, one := gcSettings()
	if most := int64(bound + sessionSlack - processReserve); one > most {
		t.Errorf("one session: memory limit %d, want at most %d", one, most)
	}
	holdGC(b)
	_, two := gcSettings()
	if most := int64(2*(bound+sessionSlack) - processReserve); two > most || two <= one {
		t.Errorf("two sessions: memory limit %d, want above one's %d and at most %d", two, one, most)
	}
	releaseGC(b)

	// An unbounded search beside (a lambda bank's build) adds what it
	// counts, not a room for garbage of its own: the session's slack is
	// that room.
	free := newMemBudget(0, 0)
	free.Charge(10 << 20)
	defer free.close()
	holdGC(free)
	_, beside := gcSettings()
	releaseGC(free)
	releaseGC(a)
	if most := int64(bound + sessionSlack - processReserve + 10<<20); beside > most {
		t.Errorf("a session and an unbounded search: memory limit %d, want at most %d", beside, most)
	}

	// A heap alive far above the sessions' share.
	const alive = 4 << 30
	real := readHeap
	readHeap = func() (inUse, live int64) {
		inUse, live = real()
		return inUse + alive, live + alive
	}
	defer func() { readHeap = real }()
	holdGC(a)
	_, over := gcSettings()
	releaseGC(a)
	if over <= alive {
		t.Errorf("heap alive over %d: memory limit %d, want above it", int64(alive), over)
	}
}
