package synth

import (
	"runtime/debug"
	"sync"
)

// searchGCPercent is the garbage collector's target while a search runs.
// The bank of programs is large and lives for the whole search, and most
// evaluated programs are garbage at once (duplicates); with Go's default
// of 100 a collection, which scans the whole bank, starts each time the
// bank's size has been allocated again. 200 halves those scans at the
// price of a heap up to three times the bank (whose size the memory
// limit bounds).
const searchGCPercent = 200

var gcTune struct {
	sync.Mutex
	users int
	saved int
}

// raiseGCPercent sets the collector's target for a search and returns the
// function that restores it. Concurrent searches share the setting; the
// last one to finish restores the previous value. A higher target set by
// the user (GOGC, or GOGC=off) is kept.
func raiseGCPercent() (restore func()) {
	gcTune.Lock()
	defer gcTune.Unlock()
	if gcTune.users == 0 {
		gcTune.saved = debug.SetGCPercent(searchGCPercent)
		if gcTune.saved < 0 || gcTune.saved > searchGCPercent {
			// GOGC=off or a higher target: keep the user's.
			debug.SetGCPercent(gcTune.saved)
		}
	}
	gcTune.users++
	return func() {
		gcTune.Lock()
		defer gcTune.Unlock()
		gcTune.users--
		if gcTune.users == 0 {
			debug.SetGCPercent(gcTune.saved)
		}
	}
}
