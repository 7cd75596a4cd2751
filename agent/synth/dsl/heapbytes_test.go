package dsl

import (
	"testing"
	"unsafe"
)

// TestAllocBytesIsTheAllocatorsRounding checks the size classes against
// the allocator's own: append grows a slice to the size class of what it
// needs, so the capacity it gives is the memory the allocation takes.
func TestAllocBytesIsTheAllocatorsRounding(t *testing.T) {
	for n := 1; n <= 40_000; n++ {
		if got, want := AllocBytes(n), int64(cap(append([]byte(nil), make([]byte, n)...))); got != want {
			t.Fatalf("AllocBytes(%d) = %d, the allocator gives %d", n, got, want)
		}
	}
	if got := AllocBytes(0); got != 0 {
		t.Errorf("AllocBytes(0) = %d, want 0", got)
	}
}

// TestHeapBytes checks what a stored column is charged: strings and
// lists of strings always, at their size classes; lists of numbers only
// when the operator made them on the heap.
func TestHeapBytes(t *testing.T) {
	ints := [][]int64{make([]int64, 3), make([]int64, 5), nil}
	tests := []struct {
		name     string
		data     any
		heapRows bool
		want     int64
	}{
		{"ints", []int64{1, 2, 3}, true, 0},
		{"strings", []string{"abc", "", "a string of 17 b."}, false, 8 + 0 + 24},
		{"lists of strings", [][]string{{"ab", "c"}}, false, 32 + 8 + 8},
		{"lists of ints in the arena", ints, false, 0},
		{"lists of ints on the heap", ints, true, 24 + 48},
		{"lists of bools on the heap", [][]bool{make([]bool, 9)}, true, 16},
		{"lists of pairs on the heap", [][]Pair{make([]Pair, 1)}, true, AllocBytes(int(unsafe.Sizeof(Pair{})))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HeapBytes(tt.data, tt.heapRows); got != tt.want {
				t.Errorf("HeapBytes = %d, want %d", got, tt.want)
			}
		})
	}
}
