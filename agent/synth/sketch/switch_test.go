package sketch

import (
	"slices"
	"testing"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// A cut is the fewest intervals of the elements, each bound as free as the
// points leave it: between the last element that must lie below it and
// the first that must lie above it.
func TestLearnCut(t *testing.T) {
	// States 0 and 1; the action bits are "set 0", "set 1", "keep".
	pt := func(x int64, prev, next int) switchPoint { return switchPoint{x: x, prev: prev, next: next} }
	cases := []struct {
		name   string
		pts    []switchPoint
		ok     bool
		acts   []switchAction
		lo, hi []int64
	}{
		{"hysteresis", []switchPoint{
			pt(10, 0, 1), pt(16, 0, 1), pt(17, 1, 1), pt(19, 0, 0), pt(21, 1, 1), pt(22, 0, 0), pt(24, 1, 0), pt(29, 0, 0),
		}, true, []switchAction{{to: 1}, {keep: true, to: 2}, {to: 0}}, []int64{17, 22}, []int64{19, 24}},
		{"a latch", []switchPoint{pt(0, 0, 0), pt(1, 0, 1), pt(0, 1, 1), pt(1, 1, 1)},
			true, []switchAction{{keep: true, to: 2}, {to: 1}}, []int64{1}, []int64{1}},
		{"no cut: one element sets both states", []switchPoint{pt(0, 0, 1), pt(0, 1, 0), pt(3, 1, 1)}, false, nil, nil, nil},
		{"no cut: too many intervals", []switchPoint{
			pt(1, 0, 1), pt(2, 1, 0), pt(3, 0, 1), pt(4, 1, 0), pt(5, 0, 1), pt(6, 1, 0),
		}, false, nil, nil, nil},
		{"no points: keep", nil, true, []switchAction{{keep: true}}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := learnCut(c.pts, 2)
			if ok != c.ok {
				t.Fatalf("learnCut ok = %v, want %v (%+v)", ok, c.ok, got)
			}
			if !ok {
				return
			}
			if !slices.Equal(got.act, c.acts) || !slices.Equal(got.lo, c.lo) || !slices.Equal(got.hi, c.hi) {
				t.Errorf("got actions %+v, bounds from %v to %v; want %+v, %v to %v", got.act, got.lo, got.hi, c.acts, c.lo, c.hi)
			}
			for b := range got.bounds {
				if got.bounds[b] < got.lo[b] || got.bounds[b] > got.hi[b] {
					t.Errorf("bound %d = %d, outside [%d, %d]", b, got.bounds[b], got.lo[b], got.hi[b])
				}
			}
			for _, p := range c.pts {
				if s := got.apply(p.prev, p.x); s != p.next {
					t.Errorf("from %d at %d: state %d, want %d", p.prev, p.x, s, p.next)
				}
			}
		})
	}
}

// The rivals of a machine move one bound at a time to either end of its
// gap, so that proposals probe the gap.
func TestSwitchVariants(t *testing.T) {
	m := switchMachine{states: []any{int64(0), int64(1)}, shared: true, elem: dsl.Int, cuts: []switchCut{{
		act:    []switchAction{{to: 1}, {keep: true, to: 2}, {to: 0}},
		bounds: []int64{18, 23}, lo: []int64{17, 22}, hi: []int64{19, 23},
	}}}
	var got [][]int64
	for _, v := range m.variants() {
		got = append(got, v.cuts[0].bounds)
	}
	want := [][]int64{{18, 23}, {17, 23}, {19, 23}, {18, 22}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("variants' bounds %v, want %v", got, want)
	}
	if b := m.cuts[0].bounds; !slices.Equal(b, []int64{18, 23}) {
		t.Errorf("variants changed the machine's bounds to %v", b)
	}
}
