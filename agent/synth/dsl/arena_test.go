package dsl

import (
	"slices"
	"testing"
	"unsafe"
)

// TestArenaRewind checks that what an arena hands out after a mark goes
// back on rewind, and that what it handed out before stays untouched.
func TestArenaRewind(t *testing.T) {
	var ar Arena
	kept := alloc[int64](&ar, 3)
	copy(kept, []int64{7, 8, 9})
	m := ar.Mark()
	dup := alloc[int64](&ar, 4)
	copy(dup, []int64{1, 2, 3, 4})
	ar.Rewind(m)
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
	var ar Arena
	m := ar.Mark()
	firstLen := minChunkBytes/8 - 1
	first := alloc[int64](&ar, firstLen)
	second := alloc[int64](&ar, 2) // does not fit: a new chunk
	second[0] = 5
	ar.Rewind(m)
	third := alloc[int64](&ar, 2)
	if &third[0] == &second[0] {
		t.Errorf("a mark from an earlier chunk rewound the current one")
	}
	if len(first) != firstLen || len(alloc[int64](&ar, MaxLen)) != MaxLen {
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

// TestChunkSizes checks that chunks start small and double up to
// maxChunkBytes, and that a request larger than the next chunk is given
// its own memory without leaving the chunk in use.
func TestChunkSizes(t *testing.T) {
	var c chunks[int64]
	var sizes []int
	for range 10 {
		c.Take(1)
		sizes = append(sizes, cap(c.buf))
		c.Take(cap(c.buf) - 1) // fills the chunk: the next take starts one
	}
	want := []int{8 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10, 512 << 10, 512 << 10, 512 << 10}
	if !slices.Equal(sizes, want) {
		t.Errorf("chunk lengths %v, want %v", sizes, want)
	}
	var n chunks[Node]
	n.Take(1)
	if got, max := cap(n.buf)*int(unsafe.Sizeof(Node{})), minChunkBytes; got > max || got < max/2 {
		t.Errorf("first chunk of nodes is %d bytes, want about %d", got, max)
	}
	gen, used := c.gen, len(c.buf)
	big := c.Take(maxChunkBytes) // more elements than any chunk holds
	if len(big) != maxChunkBytes || c.gen != gen || len(c.buf) != used {
		t.Errorf("a large take: %d elements, generation %d -> %d, used %d -> %d", len(big), gen, c.gen, used, len(c.buf))
	}
}

// TestRangeOf checks list(range(lo, hi)) inside and outside the shared
// window, and that a range cannot be appended into its neighbours.
func TestRangeOf(t *testing.T) {
	tests := []struct {
		lo, hi int64
		want   []int64
		good   bool
	}{
		{0, 3, []int64{0, 1, 2}, true},
		{-2, 1, []int64{-2, -1, 0}, true},
		{5, 5, []int64{}, true},
		{5, 2, []int64{}, true},
		{MaxLen - 2, MaxLen, []int64{MaxLen - 2, MaxLen - 1}, true},
		{MaxLen - 1, MaxLen + 1, []int64{MaxLen - 1, MaxLen}, true},
		{-MaxLen - 1, -MaxLen + 1, []int64{-MaxLen - 1, -MaxLen}, true},
		{0, MaxLen + 1, nil, false},
	}
	for _, tc := range tests {
		for _, ar := range []*Arena{nil, {}} {
			got, good := rangeOf(ar, tc.lo, tc.hi)
			if good != tc.good || (good && (got == nil || !slices.Equal(got, tc.want))) {
				t.Errorf("rangeOf(%d, %d) = %v, %v; want %v, %v", tc.lo, tc.hi, got, good, tc.want, tc.good)
			}
		}
	}
	r, _ := rangeOf(nil, 0, 3)
	_ = append(r, 99)
	if next, _ := rangeOf(nil, 3, 4); next[0] != 3 {
		t.Errorf("an append to a range wrote into the shared list: range(3, 4) = %v", next)
	}
}

// Only the types without pointers get chunks that are not zeroed, of the
// length asked for, aligned for their type and holding what is written.
func TestChunkMemory(t *testing.T) {
	pointerFree := []struct {
		name string
		got  bool
	}{
		{"int64", hasPointers[int64]()},
		{"float64", hasPointers[float64]()},
		{"bool", hasPointers[bool]()},
		{"pair", hasPointers[Pair]()},
	}
	for _, c := range pointerFree {
		if c.got {
			t.Errorf("hasPointers[%s]() = true, want false", c.name)
		}
	}
	if !hasPointers[string]() || !hasPointers[[]int64]() || !hasPointers[*Node]() || !hasPointers[Entry]() {
		t.Errorf("hasPointers is false for a type with pointers")
	}
	for _, n := range []int{0, 1, 100, minChunkBytes / 16, 3 << 20 / 16} {
		ps := noZeroSlice[Pair](n)
		if len(ps) != n {
			t.Fatalf("noZeroSlice(%d) has length %d", n, len(ps))
		}
		if n > 0 && uintptr(unsafe.Pointer(&ps[0]))%unsafe.Alignof(Pair{}) != 0 {
			t.Errorf("noZeroSlice(%d) is not aligned for pairs", n)
		}
		for i := range ps {
			ps[i] = Pair{int64(i), -int64(i)}
		}
		if n > 0 && ps[n-1] != (Pair{int64(n - 1), -int64(n - 1)}) {
			t.Errorf("noZeroSlice(%d): the last element does not keep what was written", n)
		}
	}
}
