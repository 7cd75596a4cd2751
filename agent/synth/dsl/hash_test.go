package dsl

import (
	"fmt"
	"slices"
	"testing"
)

func TestHashSet(t *testing.T) {
	tests := []struct {
		name   string
		insert []Hasher
		want   map[Hasher]bool
	}{
		{"empty", nil, map[Hasher]bool{0: false, 1: false, 42: false}},
		{"zero is a key like any other", []Hasher{0}, map[Hasher]bool{0: true, 2: false}},
		{"duplicates", []Hasher{7, 7, 7}, map[Hasher]bool{7: true, 8: false}},
		{"colliding slots", []Hasher{1, 65, 129, 1 << 40}, map[Hasher]bool{1: true, 65: true, 129: true, 1 << 40: true, 193: false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s HashSet
			fresh := map[Hasher]bool{}
			for _, h := range tc.insert {
				if got, want := s.Insert(h), !fresh[h]; got != want {
					t.Errorf("insert(%d) = %v, want %v", h, got, want)
				}
				fresh[h] = true
			}
			for h, want := range tc.want {
				if got := s.Has(h); got != want {
					t.Errorf("has(%d) = %v, want %v", h, got, want)
				}
			}
		})
	}
}

// TestHashSetGrows checks membership across many table growths against a
// Go map.
func TestHashSetGrows(t *testing.T) {
	var s HashSet
	ref := map[Hasher]bool{}
	h := FnvOffset
	for i := 0; i < 50000; i++ {
		h = h.Mix(uint64(i % 40000)) // repeats some keys
		k := h % 100000
		if got, want := s.Insert(k), !ref[k]; got != want {
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
	for k := Hasher(0); k < 100000; k++ {
		if got, want := s.Has(k), ref[k]; got != want {
			t.Fatalf("has(%d) = %v, want %v", k, got, want)
		}
	}
}

// Programs whose values hash alike are taken for equivalent, so distinct
// values must hash apart: here every small list, string and run of
// numbers a search meets early, alone and in columns of two and eight
// environments. (A hash with two chains joined by one mix merged [-1, 2]
// with [3, -2]: the multiplications of FNV are too close to linear.)
func TestHashColumnSeparatesValues(t *testing.T) {
	var lists [][]int64
	var grow func(xs []int64)
	grow = func(xs []int64) {
		lists = append(lists, slices.Clone(xs))
		if len(xs) == 4 {
			return
		}
		for x := int64(-3); x <= 3; x++ {
			grow(append(xs, x))
		}
	}
	grow(nil)
	var strs []string
	for _, l := range lists {
		if len(l) <= 3 && !slices.ContainsFunc(l, func(x int64) bool { return x < 0 }) {
			b := make([]byte, len(l))
			for i, x := range l {
				b[i] = "ab 0"[x]
			}
			strs = append(strs, string(b))
		}
	}
	var pairs [][]Pair
	for _, l := range lists {
		if len(l)%2 == 0 {
			ps := make([]Pair, len(l)/2)
			for i := range ps {
				ps[i] = Pair{l[2*i], l[2*i+1]}
			}
			pairs = append(pairs, ps)
		}
	}
	ints := make([]int64, 0, 41)
	for x := int64(-20); x <= 20; x++ {
		ints = append(ints, x)
	}
	cols := map[string][]any{}
	for _, l := range lists {
		cols["one list"] = append(cols["one list"], [][]int64{l})
		cols["a list eight times"] = append(cols["a list eight times"], slices.Repeat([][]int64{l}, 8))
		if len(l) <= 2 {
			for _, m := range lists {
				if len(m) <= 2 {
					cols["two lists"] = append(cols["two lists"], [][]int64{l, m})
				}
			}
		}
	}
	// Longer lists go through ofInts' two chains: every list of 4 to 9
	// elements of two values, which holds the lists whose chains are
	// swapped (the elements 0, 1 and 2, 3 exchanged) and shifted.
	for n := 4; n <= 9; n++ {
		for bits := range 1 << n {
			l := make([]int64, n)
			for i := range l {
				l[i] = int64(bits>>i&1)*7 - 2
			}
			cols["one long list"] = append(cols["one long list"], [][]int64{l})
		}
	}
	for _, s := range strs {
		cols["one string"] = append(cols["one string"], []string{s})
	}
	for _, p := range pairs {
		cols["one list of pairs"] = append(cols["one list of pairs"], [][]Pair{p})
	}
	for _, x := range ints {
		for _, y := range ints {
			cols["two numbers"] = append(cols["two numbers"], []int64{x, y})
		}
	}
	for name, cs := range cols {
		seen := map[Hasher]string{}
		for _, c := range cs {
			n := columnLen(c)
			h := HashColumn(c, make([]bool, n), n, false)
			v := fmt.Sprint(c)
			if prev, ok := seen[h]; ok && prev != v {
				t.Fatalf("%s: %s and %s hash alike", name, prev, v)
			}
			seen[h] = v
		}
		if len(seen) != len(cs) {
			t.Errorf("%s: %d distinct hashes for %d distinct columns", name, len(seen), len(cs))
		}
	}
}

// A column the same on every environment (vec.same) hashes from its first
// value alone, as the column of those values does.
func TestHashColumnSame(t *testing.T) {
	tests := []struct {
		name string
		col  any
		bad  []bool
	}{
		{"numbers", []int64{7, 7, 7}, nil},
		{"numbers failed", []int64{0, 0, 0}, []bool{true, true, true}},
		{"lists", [][]int64{{1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}}, []bool{false, false, false}},
		{"strings", []string{"ab", "ab"}, nil},
		{"floats", []float64{0.5, 0.5, 0.5, 0.5}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := columnLen(tt.col)
			if got, want := HashColumn(tt.col, tt.bad, n, true), HashColumn(tt.col, tt.bad, n, false); got != want {
				t.Errorf("same column hashes %x, column of its values %x", got, want)
			}
		})
	}
}
