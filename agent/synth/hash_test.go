package synth

import (
	"testing"
)

func TestHashSet(t *testing.T) {
	tests := []struct {
		name   string
		insert []hasher
		want   map[hasher]bool
	}{
		{"empty", nil, map[hasher]bool{0: false, 1: false, 42: false}},
		{"zero is a key like any other", []hasher{0}, map[hasher]bool{0: true, 2: false}},
		{"duplicates", []hasher{7, 7, 7}, map[hasher]bool{7: true, 8: false}},
		{"colliding slots", []hasher{1, 65, 129, 1 << 40}, map[hasher]bool{1: true, 65: true, 129: true, 1 << 40: true, 193: false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s hashSet
			fresh := map[hasher]bool{}
			for _, h := range tc.insert {
				if got, want := s.insert(h), !fresh[h]; got != want {
					t.Errorf("insert(%d) = %v, want %v", h, got, want)
				}
				fresh[h] = true
			}
			for h, want := range tc.want {
				if got := s.has(h); got != want {
					t.Errorf("has(%d) = %v, want %v", h, got, want)
				}
			}
		})
	}
}

// TestHashSetGrows checks membership across many table growths against a
// Go map.
func TestHashSetGrows(t *testing.T) {
	var s hashSet
	ref := map[hasher]bool{}
	h := fnvOffset
	for i := 0; i < 50000; i++ {
		h = h.mix(uint64(i % 40000)) // repeats some keys
		k := h % 100000
		if got, want := s.insert(k), !ref[k]; got != want {
			t.Fatalf("insert #%d (%d) = %v, want %v", i, k, got, want)
		}
		ref[k] = true
	}
	size := s.n
	if s.zero {
		size++
	}
	if size != len(ref) {
		t.Fatalf("size %d, want %d", size, len(ref))
	}
	for k := hasher(0); k < 100000; k++ {
		if got, want := s.has(k), ref[k]; got != want {
			t.Fatalf("has(%d) = %v, want %v", k, got, want)
		}
	}
}
