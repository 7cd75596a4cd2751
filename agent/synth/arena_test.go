package synth

import (
	"slices"
	"testing"
)

// TestArenaRewind checks that what an arena hands out after a mark goes
// back on rewind, and that what it handed out before stays untouched.
func TestArenaRewind(t *testing.T) {
	var ar arena
	kept := alloc[int64](&ar, 3)
	copy(kept, []int64{7, 8, 9})
	m := ar.mark()
	dup := alloc[int64](&ar, 4)
	copy(dup, []int64{1, 2, 3, 4})
	ar.rewind(m)
	again := alloc[int64](&ar, 4)
	if &again[0] != &dup[0] {
		t.Errorf("rewound memory was not reused")
	}
	if !slices.Equal(kept, []int64{7, 8, 9}) {
		t.Errorf("memory kept before the mark became %v", kept)
	}
	// A slice from an arena has no room to grow into its neighbour's.
	copy(again, []int64{0, 0, 0, 0})
	grown := append(kept, 10)
	grown[0] = 70
	if kept[0] != 7 || again[0] != 0 {
		t.Errorf("append on an arena slice wrote into the arena: kept %v, next %v", kept, again)
	}
}

// TestArenaNewChunk checks that a mark taken in a chunk the arena has
// since left rewinds nothing, and that lists of every length fit.
func TestArenaNewChunk(t *testing.T) {
	var ar arena
	m := ar.mark()
	first := alloc[int64](&ar, arenaChunk-1)
	second := alloc[int64](&ar, 2) // does not fit: a new chunk
	second[0] = 5
	ar.rewind(m)
	third := alloc[int64](&ar, 2)
	if &third[0] == &second[0] {
		t.Errorf("a mark from an earlier chunk rewound the current one")
	}
	if len(first) != arenaChunk-1 || len(alloc[int64](&ar, maxLen)) != maxLen {
		t.Errorf("wrong lengths")
	}
	if got := alloc[int64](nil, 0); got == nil {
		t.Errorf("alloc(nil, 0) is nil, want an empty list")
	}
	if got := alloc[int64](&ar, 0); got == nil {
		t.Errorf("alloc(arena, 0) is nil, want an empty list")
	}
	if got := alloc[string](&ar, 2); len(got) != 2 {
		t.Errorf("alloc of strings: %v", got)
	}
}
