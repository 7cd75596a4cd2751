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
// what the searches' budgets hold (memory.go), the heap alive besides,
// measured at the last collection, room for garbage up to each running
// session's bound, and the runtime's own memory. The heap grows with the
// banks without a collection; garbage, and the bank of a search that
// ended, are collected once the session's bound is reached. After each
// collection the limit is measured again (afterGC), so that it follows
// what is alive. A user who set a memory limit (GOMEMLIMIT) or turned the
// collector off keeps those settings, with the collector's target raised
// to searchGCPercent as the only change.

const (
	// searchGCPercent is the collector's target while a search runs under
	// a memory limit set by the user: each collection scans the whole bank,
	// and 200 halves their number against Go's default of 100.
	searchGCPercent = 200
	// searchHeadroom is the least garbage a search without a memory
	// bound (the lambda banks' builds) may leave before a collection.
	searchHeadroom = 256 << 20
	// gcReportStep is how far the searches' memory moves before the
	// memory limit is set again.
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
	// alive (live), and the memory the budgets counted (chargedAtBase);
	// charged is that count now, over every root budget holding memory,
	// running or not.
	limited       bool
	other         int64
	live          int64
	charged       int64
	chargedAtBase int64
	// applied is charged when the limit was last set.
	applied int64
	// running holds the root budgets whose searches are growing.
	running map[*rootAccount]*memBudget
	// hooked says a sentinel waits for the next collection (afterGC).
	hooked bool
	// measured counts the limits measured after a collection.
	measured int
}

// holdGC sets the collector for a search of the root budget b, until
// releaseGC; the last release restores the user's settings.
func holdGC(b *memBudget) {
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
	if gcTune.running == nil {
		gcTune.running = map[*rootAccount]*memBudget{}
	}
	b.acct.running++
	gcTune.running[b.acct] = b
	applySearchLimit()
}

// releaseGC ends a hold of holdGC; the last one restores the user's
// settings.
func releaseGC(b *memBudget) {
	gcTune.Lock()
	defer gcTune.Unlock()
	gcTune.users--
	if b.acct.running--; b.acct.running == 0 {
		delete(gcTune.running, b.acct)
	}
	if gcTune.users > 0 {
		applySearchLimit()
		return
	}
	debug.SetGCPercent(gcTune.savedPercent)
	if gcTune.limited {
		debug.SetMemoryLimit(gcTune.savedLimit)
	}
}

// gcCharged counts bytes more (fewer) held by the root budget b. Memory
// given back lowers the limit at once, so that the next collection frees
// it; growth moves it in steps of gcReportStep.
func gcCharged(b *memBudget, bytes int64) {
	gcTune.Lock()
	defer gcTune.Unlock()
	b.acct.charged += bytes
	gcTune.charged += bytes
	if d := gcTune.charged - gcTune.applied; gcTune.users > 0 && (bytes < 0 || d >= gcReportStep || d <= -gcReportStep) {
		applySearchLimit()
	}
}

// gcForget takes back the count of a root budget that was dropped
// without being closed.
func gcForget(a *rootAccount) {
	gcTune.Lock()
	defer gcTune.Unlock()
	gcTune.charged -= a.charged
	a.charged = 0
}

// rebase measures what the memory limit is computed from (the caller
// holds gcTune's lock).
func rebase() {
	inUse, live := memoryNotGarbage()
	gcTune.other, gcTune.live = inUse-live, live
	gcTune.chargedAtBase = gcTune.charged
}

// searchLimit is the memory limit while searches run: the runtime's own
// memory, the heap alive that no budget counts (the lambda banks, the
// workflow's own, and whatever the budgets' count misses, as measured at
// the last collection), the memory the budgets count now, and room for
// garbage: the rest of each running bounded session's bound (what its
// budget does not hold, and its room: memory_mb in all), as much again
// as an unbounded one holds (at least searchHeadroom). A budget's memory
// given back (a search that ended) is garbage, no longer counted: the
// next collection frees it.
func searchLimit() int64 {
	limit := gcTune.other + max(0, gcTune.live-gcTune.chargedAtBase) + max(0, gcTune.charged)
	for _, b := range gcTune.running {
		limit += b.garbageRoom()
	}
	return limit
}

// garbageRoom is the room for garbage a running root budget gives its
// searches (see searchLimit).
func (b *memBudget) garbageRoom() int64 {
	used := max(b.used.Load(), 0)
	if b.limit <= 0 {
		return max(searchHeadroom, used)
	}
	return max(b.limit-used, 0) + max(b.room, minGarbageRoom)
}

// applySearchLimit sets the memory limit for the running searches (the
// caller holds gcTune's lock).
func applySearchLimit() {
	gcTune.applied = gcTune.charged
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
