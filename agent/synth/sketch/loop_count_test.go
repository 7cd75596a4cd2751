package sketch

import (
	"testing"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

func TestSignedSums(t *testing.T) {
	tests := []struct {
		lo, hi   int64
		neg, pos int64
	}{
		{0, 0, 0, 0},
		{5, 3, 0, 0},
		{0, 5, 0, 10},
		{1, 4, 0, 6},
		{-3, 0, -6, 0},
		{-3, 3, -6, 3},
		{-5, -2, -12, 0},
		{2, 3, 0, 2},
	}
	for _, tt := range tests {
		neg, pos := signedSums(tt.lo, tt.hi)
		if neg != tt.neg || pos != tt.pos {
			t.Errorf("signedSums(%d, %d) = %d, %d; want %d, %d", tt.lo, tt.hi, neg, pos, tt.neg, tt.pos)
		}
	}
}

// A range is kept when its outputs can be counts or sums of some of its
// indices, and its examples agree with one another.
func TestCountRangeFeasible(t *testing.T) {
	tests := []struct {
		name      string
		lo, hi    []int64
		outs      []int64
		wantFill  bool
		wantCount bool
		wantSum   bool
	}{
		{name: "counts of nested ranges", lo: []int64{0, 0}, hi: []int64{5, 10}, outs: []int64{2, 4}, wantFill: true, wantCount: true, wantSum: true},
		{name: "a sum, more than a count", lo: []int64{0, 0}, hi: []int64{5, 10}, outs: []int64{7, 20}, wantFill: true, wantSum: true},
		{name: "an output falling as its range grows", lo: []int64{0, 0}, hi: []int64{5, 10}, outs: []int64{4, 2}, wantFill: false},
		{name: "more than the range holds", lo: []int64{0}, hi: []int64{3}, outs: []int64{4}, wantFill: false},
		{name: "a sum beyond its range", lo: []int64{0}, hi: []int64{3}, outs: []int64{9}, wantFill: false},
		{name: "an empty range with an output", lo: []int64{3, 0}, hi: []int64{3, 4}, outs: []int64{1, 1}, wantFill: false},
		{name: "one range, two outputs", lo: []int64{0, 0}, hi: []int64{4, 4}, outs: []int64{1, 2}, wantFill: false},
		{name: "empty everywhere", lo: []int64{2, 5}, hi: []int64{2, 1}, outs: []int64{0, 0}, wantFill: false},
		{name: "negative sums", lo: []int64{-4, -6}, hi: []int64{0, 0}, outs: []int64{-4, -10}, wantFill: true, wantSum: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, stop := &term{i: tt.lo}, &term{i: tt.hi}
			r := countRange{start: start, stop: stop}
			_, got := r.fill(tt.outs)
			if got != tt.wantFill {
				t.Fatalf("fill = %v, want %v", got, tt.wantFill)
			}
			if got && (r.count != tt.wantCount || r.sum != tt.wantSum) {
				t.Errorf("count, sum = %v, %v; want %v, %v", r.count, r.sum, tt.wantCount, tt.wantSum)
			}
		})
	}
}

// A pair of tests counted and summed word by word agrees with the same
// pair counted index by index, across word boundaries.
func TestCountDomainPair(t *testing.T) {
	lo, hi := int64(-70), int64(130)
	mk := func(f func(i int64) bool) *countLit {
		l := &countLit{literal: literal{bits: make([]uint64, (hi-lo+63)/64)}}
		for i := lo; i < hi; i++ {
			if f(i) {
				k := i - lo
				l.bits[k/64] |= 1 << uint(k%64)
			}
		}
		return l
	}
	a := mk(func(i int64) bool { return i%3 == 0 })
	b := mk(func(i int64) bool { return i%5 == 0 })
	d := &countDomain{lo: lo}
	for _, span := range [][2]int64{{-70, 130}, {-3, 61}, {0, 64}, {63, 65}, {10, 10}, {-70, -69}} {
		for _, or := range []bool{false, true} {
			var n, s int64
			for i := span[0]; i < span[1]; i++ {
				in := i%3 == 0 && i%5 == 0
				if or {
					in = i%3 == 0 || i%5 == 0
				}
				if in {
					n++
					s += i
				}
			}
			if got := d.aggPair(a, b, or, span[0], span[1], false); got != n {
				t.Errorf("count over %v (or %v) = %d, want %d", span, or, got, n)
			}
			if got := d.aggPair(a, b, or, span[0], span[1], true); got != s {
				t.Errorf("sum over %v (or %v) = %d, want %d", span, or, got, s)
			}
		}
	}
}

// With no range whose outputs can be counts (no parameter, and constant
// ranges cannot give two examples different outputs), the sketch finds
// nothing instead of reading the tests of an empty domain.
func TestCountSketchNoRange(t *testing.T) {
	p := &dsl.Problem{Out: dsl.Int, Outs: []any{int64(1), int64(2)}}
	lk := &loopKit{p: p, ps: [][]any{{}, {}}}
	if got := countSketch(nil, p, lk, func(*dsl.Node, []any) bool { t.Fatal("nothing should be offered"); return true }); got {
		t.Errorf("countSketch = true, want false")
	}
}
