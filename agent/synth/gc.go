package synth

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The garbage collector during a search. The enumerator's heap is its bank
// of programs, which lives for the whole search, and little else: the
// results of programs equivalent to one it has go back to an arena
// (arena.go) instead of becoming garbage. A collection triggered by the
// heap's growth (GOGC) therefore scans the whole bank and frees next to
// nothing, and while it marks, every pointer the search writes pays a
// write barrier: in BenchmarkEnumerate the collector cost a third of the
// search's time. While searches run, the collector is instead driven by a
// memory limit: the memory in use and not garbage at the last collection
// (or when the first search started), room for garbage (twice the live
// heap, as GOGC=200 gives, and at least searchHeadroom), and twice what
// the searches' banks have grown since (a bank's values and its own
// bookkeeping). The heap grows with the banks without a collection;
// garbage is collected as before. After each collection the limit is
// measured again (afterGC), so that it never falls below what is alive.
// A user who set a memory limit (GOMEMLIMIT) or turned the collector off
// keeps those settings, with the collector's target raised to
// searchGCPercent as the only change.

const (
	// searchGCPercent is the collector's target while a search runs under
	// a memory limit set by the user: each collection scans the whole bank,
	// and 200 halves their number against Go's default of 100.
	searchGCPercent = 200
	// searchHeadroom is the least garbage a search may leave before a
	// collection.
	searchHeadroom = 256 << 20
	// gcReportStep is how much a bank grows between two updates of the
	// memory limit.
	gcReportStep = 32 << 20
)

var gcTune struct {
	sync.Mutex
	users int
	// The user's settings, restored when the last search ends.
	savedPercent int
	savedLimit   int64
	// limited says the searches run under a limit of their own (see the
	// top of the file): base, the memory in use and not garbage when it
	// was measured plus the room for garbage, and twice the growth of the
	// banks (the bytes of every running search's bank) since then
	// (banksAtBase).
	limited     bool
	base        int64
	banks       int64
	banksAtBase int64
	// hooked says a sentinel waits for the next collection (afterGC).
	hooked bool
}

// gcHold is one search's hold on the collector's settings.
type gcHold struct {
	// reported is the bank's size last reported, next the size at which
	// it is reported again.
	reported, next int64
}

// holdGC sets the collector for a search whose bank holds bank bytes (by
// the enumerator's count, memUsed) and returns its hold; release restores
// the user's settings when the last search ends.
func holdGC(bank int64) *gcHold {
	gcTune.Lock()
	defer gcTune.Unlock()
	if gcTune.users == 0 {
		gcTune.savedPercent = debug.SetGCPercent(searchGCPercent)
		gcTune.savedLimit = debug.SetMemoryLimit(-1)
		gcTune.limited = gcTune.savedPercent >= 0 && gcTune.savedLimit == math.MaxInt64
		switch {
		case gcTune.limited:
			rebase()
			debug.SetGCPercent(-1)
			armGCHook()
		case gcTune.savedPercent < 0 || gcTune.savedPercent > searchGCPercent:
			// GOGC=off or a higher target: keep the user's.
			debug.SetGCPercent(gcTune.savedPercent)
		}
	}
	gcTune.users++
	gcTune.banks += bank
	applySearchLimit()
	return &gcHold{reported: bank, next: bank + gcReportStep}
}

// grew reports the bank's size when it has grown by gcReportStep since the
// last report, raising the memory limit with it.
func (h *gcHold) grew(bank int64) {
	if h == nil || bank < h.next {
		return
	}
	gcTune.Lock()
	defer gcTune.Unlock()
	gcTune.banks += bank - h.reported
	h.reported, h.next = bank, bank+gcReportStep
	applySearchLimit()
}

// release ends the search's hold; the last one restores the user's
// settings.
func (h *gcHold) release() {
	gcTune.Lock()
	defer gcTune.Unlock()
	gcTune.users--
	gcTune.banks -= h.reported
	if gcTune.users > 0 {
		applySearchLimit()
		return
	}
	debug.SetGCPercent(gcTune.savedPercent)
	if gcTune.limited {
		debug.SetMemoryLimit(gcTune.savedLimit)
	}
}

// rebase measures the memory limit's base (the caller holds gcTune's
// lock).
func rebase() {
	inUse, live := memoryNotGarbage()
	gcTune.base = inUse + max(searchHeadroom, 2*live)
	gcTune.banksAtBase = gcTune.banks
}

// searchLimit is the memory limit while searches run: see the top of the
// file.
func searchLimit() int64 {
	return gcTune.base + 2*max(0, gcTune.banks-gcTune.banksAtBase)
}

// applySearchLimit sets the memory limit for the running searches (the
// caller holds gcTune's lock).
func applySearchLimit() {
	if gcTune.limited {
		debug.SetMemoryLimit(searchLimit())
	}
}

// gcSentinel is an object nothing refers to, whose cleanup tells that a
// collection ran; it holds pointers, so that it is not packed with others
// in a tiny block that some of them keep alive.
type gcSentinel struct{ _ [2]*byte }

// armGCHook has afterGC called after the next collection (the caller
// holds gcTune's lock).
func armGCHook() {
	if gcTune.hooked {
		return
	}
	gcTune.hooked = true
	runtime.AddCleanup(new(gcSentinel), func(struct{}) { afterGC() }, struct{}{})
}

// afterGC measures the memory limit again after a collection, while
// searches run: the heap alive may have grown (a bank kept between two
// searches, the searches running beside one another, what else the
// process holds), and a limit below it would have the collector run
// without end.
func afterGC() {
	gcTune.Lock()
	defer gcTune.Unlock()
	gcTune.hooked = false
	if gcTune.users == 0 || !gcTune.limited {
		return
	}
	rebase()
	applySearchLimit()
	armGCHook()
}

// memoryNotGarbage returns the memory the Go runtime holds from the
// system, as its memory limit counts it, less the garbage allocated since
// the last collection, and the heap that collection found alive. The
// first is that heap plus the memory that is not heap objects (stacks,
// the runtime's own, free spans).
func memoryNotGarbage() (inUse, live int64) {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/gc/heap/live:bytes"},
	}
	metrics.Read(s)
	v := func(i int) int64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(s[i].Value.Uint64())
	}
	objects := v(2)
	live = min(v(3), objects)
	return v(0) - v(1) - objects + live, live
}
