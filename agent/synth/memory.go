package synth

import (
	"runtime"
	"sync/atomic"
)

// The memory of a session's searches. agent.synth.memory_mb (Options.
// MemoryBytes) bounds everything the searches of one agent hold at once:
// the program banks, their arenas, hash sets and bank lists, the boxed
// values and masks strategies keep, the searches of sketches' holes and
// of a proposal's rivals, and a search kept to be resumed. Every
// enumerator charges a memBudget with the memory it takes, a chunk or a
// table at a time (dsl.Meter): its own part of the session's budget
// (sub), so that each search is bounded by its share and all of them
// together by the session's bound.
//
// A bound reached freezes the bank, in a defined way: the enumerator
// stores no further program, and goes on building programs of the sizes
// left from those it stored, each checked against the examples and
// dropped (a solution of the next size is still found); a sweep reduces
// only what it stored. The sketches run as before, their holes within
// what is left of the session's budget (a quarter of it is kept for them,
// and for a proposal's search beside a search kept to be resumed). The
// session's notes say so (describe).
//
// The budget's count can fall short of what the searches really hold;
// the heap measured after each collection is the check that holds
// whatever it says (gc.go): past the process's share, the banks freeze
// the same way, and the notes say it was the process's memory.
//
// The budget counts what the searches keep, not the garbage they leave;
// the collector's memory limit (gc.go) allows, while a session searches,
// its whole bound: what it keeps below its budget's limit and the rest,
// at least an eighth, as room for garbage. A process running N sessions
// at once therefore stays within N bounds and what else it holds.

const (
	// mainShare is the part of a session's budget its main search (a
	// session's, a proposal's) may fill: the rest is left for the holes
	// of its sketches, and for a proposal's search beside a search kept
	// to be resumed.
	mainShare = 0.75
	// minGarbageRoom is the least of a session's bound left as room for
	// garbage, outside its budget.
	minGarbageRoom = 32 << 20
)

// memBudget bounds and counts the memory of a search's structures, by
// their own count (dsl.Meter): a session's (a root), or a part of one
// (sub) that one search fills, counted in its ancestors too.
type memBudget struct {
	parent *memBudget
	// limit is what it may hold (0: no bound of its own).
	limit int64
	used  atomic.Int64
	peak  atomic.Int64
	// room is a root's room for garbage beyond limit, which the
	// collector's memory limit allows while its searches run.
	room int64
	// acct is what the collector's tuning knows of a root (gc.go).
	acct *rootAccount
}

var _ interface{ Charge(int64) } = (*memBudget)(nil)

// rootAccount is a root budget's memory as gcTune counts it, apart from
// the budget so that a cleanup can take it back when the budget is
// dropped without being closed.
type rootAccount struct {
	// bound is the root's bound (limit and room; 0: unbounded).
	bound   int64
	charged int64 // gcTune's lock
	// running counts its searches' grows in progress (gcTune's lock).
	running int
}

// newMemBudget returns a root budget of limit bytes (0: unbounded) and
// room bytes for garbage.
func newMemBudget(limit, room int64) *memBudget {
	b := &memBudget{limit: max(limit, 0), room: max(room, 0), acct: &rootAccount{}}
	if b.limit > 0 {
		b.acct.bound = b.limit + b.room
	}
	// A budget dropped without close (an agent nobody closed) gives its
	// count back to the collector's tuning once it is unreachable.
	runtime.AddCleanup(b, func(a *rootAccount) { gcForget(a) }, b.acct)
	return b
}

// sessionBudget is the root budget of a session bounded by bound bytes:
// an eighth (at least minGarbageRoom, at most half) is room for garbage,
// the rest what its searches may keep.
func sessionBudget(bound int64) *memBudget {
	if bound <= 0 {
		return newMemBudget(0, 0)
	}
	room := min(max(bound/8, minGarbageRoom), bound/2)
	return newMemBudget(bound-room, room)
}

// sub returns a part of b bounded by limit (0: by b's bounds alone): what
// it holds is counted in b and b's ancestors too.
func (b *memBudget) sub(limit int64) *memBudget {
	return &memBudget{parent: b, limit: max(limit, 0)}
}

// root is the budget at the top of b's chain.
func (b *memBudget) root() *memBudget {
	for b.parent != nil {
		b = b.parent
	}
	return b
}

// Charge counts bytes more (fewer when negative) in b and its ancestors
// (dsl.Meter).
func (b *memBudget) Charge(bytes int64) {
	if b == nil || bytes == 0 {
		return
	}
	x := b
	for {
		u := x.used.Add(bytes)
		for p := x.peak.Load(); u > p && !x.peak.CompareAndSwap(p, u); p = x.peak.Load() {
		}
		if x.parent == nil {
			break
		}
		x = x.parent
	}
	gcCharged(x, bytes)
}

// fits reports whether bytes more stay within b's bound and its
// ancestors'.
func (b *memBudget) fits(bytes int64) bool {
	for x := b; x != nil; x = x.parent {
		if x.limit > 0 && x.used.Load()+bytes > x.limit {
			return false
		}
	}
	return true
}

// tightest is the least limit along b's chain (0: none).
func (b *memBudget) tightest() int64 {
	var out int64
	for x := b; x != nil; x = x.parent {
		if x.limit > 0 && (out == 0 || x.limit < out) {
			out = x.limit
		}
	}
	return out
}

// close gives what b holds back to its ancestors: the structures it
// counted are garbage now (their search ended). A budget closed and
// charged again counts from zero.
func (b *memBudget) close() {
	if b == nil {
		return
	}
	if n := b.used.Swap(0); n != 0 {
		for x := b.parent; x != nil; x = x.parent {
			x.used.Add(-n)
		}
		gcCharged(b.root(), -n)
	}
}
