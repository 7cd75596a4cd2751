package synth

import (
	"runtime/debug"
	"testing"
)

// debugGCPercent reads the collector's current target.
func debugGCPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

func TestRaiseGCPercentRestores(t *testing.T) {
	before := debugGCPercent()
	r1 := raiseGCPercent()
	r2 := raiseGCPercent()
	if got := debugGCPercent(); got < searchGCPercent && before >= 0 {
		t.Errorf("during a search GC percent = %d, want at least %d", got, searchGCPercent)
	}
	r1()
	if got := debugGCPercent(); got == before && before < searchGCPercent {
		t.Errorf("restored while a second search still runs")
	}
	r2()
	if got := debugGCPercent(); got != before {
		t.Errorf("after both searches GC percent = %d, want %d", got, before)
	}
}
