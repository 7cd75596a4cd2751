package synth

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
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
//
// The budgets count what the searches keep by their own reckoning, which
// can fall short (a structure nobody charges, a size the allocator rounds
// up). The heap itself is the check that does not depend on it: the
// process's share is memory_mb of heap alive for each bounded session
// running or holding memory (processShare), estimated as what the last
// collection found alive plus what the budgets counted since
// (liveEstimate). Past it, every bounded search freezes its bank as at
// its own bound (heapOver, enumerator.checkLimits), and the memory limit
// never exceeds each session's bound and sessionSlack, less
// processReserve: a collection runs before the resident memory passes
// memory_mb + 256 MiB a session, and finds what is really alive.

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
	// sessionSlack is what a bounded session may take in the process
	// beyond its bound: garbage not collected yet, the runtime's own
	// memory, the workflow's.
	sessionSlack = 256 << 20
	// processReserve is the part of the process's resident memory outside
	// the Go runtime's, which its memory limit does not see: the program's
	// code, the system's libraries.
	processReserve = 64 << 20
	// liveRoom is the least room for garbage the memory limit leaves above
	// the heap alive: a limit below it would have the collector run
	// without end.
	liveRoom = 64 << 20
)

// heapOver says the process's heap alive passed its share (processShare):
// bounded searches freeze their banks. It is read by the enumerator every
// 1,024 programs, without a lock.
var heapOver atomic.Bool

// readHeap measures the memory the memory limit is computed from
// (memoryNotGarbage); tests replace it.
var readHeap = memoryNotGarbage

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
	// running holds the root budgets whose searches are growing; holding
	// the bounded ones that hold memory, running or not (a search kept to
	// be resumed).
	running map[*rootAccount]*memBudget
	holding map[*rootAccount]struct{}
	// uncounted is the heap alive that no budget counted while no search
	// grew: the process's own (the workflow's, the lambda banks'),
	// measured by the last collection before the searches started or
	// between them; chargedAtGC is what the budgets counted at the last
	// collection (collected: there was one since the first search).
	uncounted   int64
	chargedAtGC int64
	collected   bool
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
		// The heap alive is measured after each collection, limited or
		// not: the feedback of heapOver needs it. What no budget counts
		// when no search grows is the process's own (uncounted), as the
		// last collection found it, with what the budgets counted then.
		rebase()
		if gcTune.collected {
			gcTune.uncounted = gcTune.live - gcTune.chargedAtGC
		} else {
			gcTune.uncounted = gcTune.live - gcTune.charged
		}
		armGCHook()
		switch {
		case gcTune.limited:
			debug.SetGCPercent(-1)
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
	heapOver.Store(false)
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
	if b.acct.bound > 0 {
		if b.acct.charged > 0 {
			if gcTune.holding == nil {
				gcTune.holding = map[*rootAccount]struct{}{}
			}
			gcTune.holding[b.acct] = struct{}{}
		} else {
			delete(gcTune.holding, b.acct)
		}
	}
	if gcTune.users > 0 {
		checkHeap()
	}
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
	delete(gcTune.holding, a)
}

// rebase measures what the memory limit is computed from (the caller
// holds gcTune's lock).
func rebase() {
	inUse, live := readHeap()
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
	if _, most := processShare(); most > 0 {
		limit = min(limit, max(most, gcTune.other+liveEstimate()+liveRoom))
	}
	return limit
}

// processShare is the heap alive the process may hold (live), and the
// most the memory limit allows (most); both are 0 when no bounded root
// budget runs or holds memory. Each bounded root (a session's) may hold
// its bound (memory_mb), whatever its budget counts: the share is the
// process's own heap (uncounted), what the other budgets count (the
// lambda banks' builds, the searches without a bound) and those bounds.
// The heap alive beyond it is what the bounded sessions' budgets missed.
// The memory limit allows each bounded session its bound and
// sessionSlack, less processReserve, and the unbounded searches running
// what they count. The caller holds gcTune's lock.
func processShare() (live, most int64) {
	var n, bounds, counted, unbounded int64
	add := func(a *rootAccount) {
		n++
		bounds += a.bound
		counted += a.charged
	}
	for a, b := range gcTune.running {
		if a.bound > 0 {
			add(a)
		} else {
			unbounded += max(b.used.Load(), 0)
		}
	}
	for a := range gcTune.holding {
		if _, run := gcTune.running[a]; !run {
			add(a)
		}
	}
	if n == 0 {
		return 0, 0
	}
	live = max(gcTune.uncounted, 0) + gcTune.charged - counted + bounds
	return live, bounds + n*sessionSlack - processReserve + unbounded
}

// liveEstimate is the heap alive now as far as it is known: what the last
// collection found, and what the budgets counted since (the caller holds
// gcTune's lock). A budget given back since is garbage the next
// collection frees: it is no longer counted.
func liveEstimate() int64 {
	since := gcTune.chargedAtBase
	if gcTune.collected {
		since = gcTune.chargedAtGC
	}
	return gcTune.live + gcTune.charged - since
}

// checkHeap sets heapOver (the caller holds gcTune's lock).
func checkHeap() {
	share, _ := processShare()
	heapOver.Store(share > 0 && liveEstimate() > share)
}

// heapReading is the estimated heap alive and the process's share, for
// the notes of a search frozen by heapOver.
func heapReading() (live, share int64) {
	gcTune.Lock()
	defer gcTune.Unlock()
	share, _ = processShare()
	return liveEstimate(), share
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
	checkHeap()
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
	// Every collection is watched once the first search started: one
	// between searches measures what the process holds of its own.
	armGCHook()
	measureCollection()
}

// measureCollection takes the measures of a collection that just ended:
// the heap alive, what the budgets counted then, and, between searches,
// what the process holds of its own; while searches run, the memory
// limit and heapOver follow (the caller holds gcTune's lock).
func measureCollection() {
	rebase()
	gcTune.chargedAtGC, gcTune.collected = gcTune.charged, true
	if gcTune.users == 0 {
		gcTune.uncounted = gcTune.live - gcTune.charged
		return
	}
	gcTune.measured++
	applySearchLimit()
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
