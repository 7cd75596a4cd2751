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
// (dsl/arena.go) instead of becoming garbage. A collection triggered by the
// heap's growth (GOGC) therefore scans the whole bank and frees next to
// nothing, and while it marks, every pointer the search writes pays a
// write barrier: in BenchmarkEnumerate the collector cost almost half of
// the search's time (GOGC=off ran it 1.8 times as fast). While searches
// run, the collector is instead driven by a memory limit (searchLimit):
// the heap alive, estimated from the last collection and the banks'
// growth since, as much again for garbage, and the runtime's own memory.
// The heap grows with the banks without a collection; garbage, and the
// bank of a search that ended, are collected as before. After each
// collection the limit is measured again (afterGC), so that it follows
// what is alive. A user who set a memory limit (GOMEMLIMIT) or turned the
// collector off keeps those settings, with the collector's target raised
// to searchGCPercent as the only change.

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
	// limited says the searches run under a limit of their own
	// (searchLimit), measured at the last collection or when the first
	// search started: the runtime's own memory then (other), the heap
	// alive (live), and the bytes of the running searches' banks
	// (banksAtBase, by the enumerators' count); banks is that count now.
	limited     bool
	other       int64
	live        int64
	banks       int64
	banksAtBase int64
	// hooked says a sentinel waits for the next collection (afterGC).
	hooked bool
	// measured counts the limits measured after a collection.
	measured int
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
	// The bank is alive already (a search resumed): not growth.
	gcTune.banks += bank
	gcTune.banksAtBase += bank
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
// settings. The bank is taken for garbage: the others' limit falls by its
// share (searchLimit), so that a collection frees it soon. (An enumerator
// kept to grow again later keeps its bank: the next collection finds it
// alive, and the limit measured after it counts it.)
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

// rebase measures what the memory limit is computed from (the caller
// holds gcTune's lock).
func rebase() {
	inUse, live := memoryNotGarbage()
	gcTune.other, gcTune.live = inUse-live, live
	gcTune.banksAtBase = gcTune.banks
}

// searchLimit is the memory limit while searches run: the runtime's own
// memory, the heap estimated alive, and as much again for garbage (at
// least searchHeadroom), which is what GOGC=100 allows. The heap alive is
// estimated as the heap alive at the last collection and twice the
// banks' growth since (a bank's values and its own bookkeeping, which the
// enumerator's count leaves out); a bank whose search ended counts
// negatively, as garbage to collect.
func searchLimit() int64 {
	alive := max(0, gcTune.live+2*(gcTune.banks-gcTune.banksAtBase))
	return gcTune.other + alive + max(searchHeadroom, alive)
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
	gcTune.measured++
	rebase()
	applySearchLimit()
	armGCHook()
}

// memoryNotGarbage returns the memory the Go runtime holds from the
// system for other things than heap objects and their room (stacks, the
// runtime's own structures) plus the heap the last collection found
// alive, and that heap alone.
//
// The heap's free memory (spans that hold no object, which the runtime
// keeps until its scavenger gives them back) and the unused room in its
// spans are left out, although the memory limit counts them: they are
// what the collections freed. Counting them made the limit a ratchet:
// each collection turned the garbage it found into free memory, the next
// limit allowed that much more garbage above it, and a sweep's process
// grew to 24 GB (TestSearchLimitStaysAcrossCollections).
func memoryNotGarbage() (inUse, live int64) {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
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
	objects := v(4)
	live = min(v(5), objects)
	return v(0) - v(1) - v(2) - v(3) - objects + live, live
}
