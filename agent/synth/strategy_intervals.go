package synth

import (
	"math"
	"sort"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Categories by intervals. When the outputs are a few repeated strings
// ("small", "", "large"; the grades "A" to "F"; "normal", "overweight"),
// the function often compares a number with thresholds: "small" below 10,
// "large" above 100. A program of integer or float type whose values,
// sorted, give each label one run of examples (equal values one label) is
// then a solution once each run is an interval: the threshold between two
// runs lies anywhere in the gap between the largest value of one and the
// smallest of the next, and the program takes the roundest number there
// (a multiple of the largest power of ten, or of five times one, nearest
// the gap's middle), as people write thresholds: 90 in the gap from 87 to
// 91, 25 from 24.8 to 25.1. A proposal's search also offers the programs
// with a threshold at either end of a gap (at most the lower value, below
// the upper one), so that the inputs it proposes probe the gaps until
// they close.

// intervals tries e's values as a number the labels are intervals of; it
// reports whether the search can stop.
func (s *searcher) intervals(t dsl.Type, e *dsl.Entry) bool {
	p := s.p
	if t != dsl.Int && t != dsl.Float {
		return false
	}
	runs, lo, hi, ok := labelRuns(p, e)
	if !ok {
		return false
	}
	labels := make([]any, len(runs))
	for i, l := range runs {
		labels[i] = p.Labels[l]
	}
	cuts := make([]float64, len(runs)-1)
	le := make([]bool, len(cuts))
	for i := range cuts {
		cuts[i], le[i] = roundCut(lo[i], hi[i], t == dsl.Int)
	}
	if s.offerIntervals(t, e, cuts, le, labels) {
		return true
	}
	if !s.spec.collect {
		return false
	}
	// The rivals: each threshold at one end of its gap.
	for i := range cuts {
		for _, end := range []struct {
			cut float64
			le  bool
		}{{lo[i], true}, {hi[i], false}} {
			if end.cut == cuts[i] && end.le == le[i] {
				continue
			}
			c2, l2 := append([]float64{}, cuts...), append([]bool{}, le...)
			c2[i], l2[i] = end.cut, end.le
			if s.offerIntervals(t, e, c2, l2, labels) {
				return true
			}
		}
	}
	return false
}

// offerIntervals hands the program naming e's values by the intervals to
// consider.
func (s *searcher) offerIntervals(t dsl.Type, e *dsl.Entry, cuts []float64, le []bool, labels []any) bool {
	op := dsl.IntervalsOp(t, cuts, le, labels)
	vals := make([]any, len(e.Values()))
	for i, v := range e.Values() {
		vals[i] = op.Eval(nil, []any{v})
	}
	return s.consider(&dsl.Node{Op: op, Kids: []*dsl.Node{e.N}, Var: -1, Size: e.N.Size + 1}, vals)
}

// labelRuns sorts the examples by e's values and returns the labels of
// the runs in order, with the gap between each run and the next (the
// largest value of one, the smallest of the next); ok is false unless
// every label has one run, equal values one label, and no example failed.
func labelRuns(p *dsl.Problem, e *dsl.Entry) (runs []int8, lo, hi []float64, ok bool) {
	n := len(p.LabelOf)
	vals := make([]float64, n)
	for i := range n {
		switch v := e.At(i).(type) {
		case int64:
			vals[i] = float64(v)
		case float64:
			if math.IsNaN(v) {
				return nil, nil, nil, false
			}
			vals[i] = v
		default:
			return nil, nil, nil, false
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return vals[order[a]] < vals[order[b]] })
	seen := make([]bool, len(p.Labels))
	for k, i := range order {
		l := p.LabelOf[i]
		if k > 0 {
			prev := order[k-1]
			if l == p.LabelOf[prev] {
				continue
			}
			if vals[prev] == vals[i] {
				return nil, nil, nil, false // one value, two labels
			}
			lo, hi = append(lo, vals[prev]), append(hi, vals[i])
		}
		if seen[l] {
			return nil, nil, nil, false // a label in two runs
		}
		seen[l] = true
		runs = append(runs, l)
	}
	return runs, lo, hi, len(runs) == len(p.Labels) && len(runs) > 1
}

// roundCut chooses a threshold between lo (the largest value below it)
// and hi (the smallest above): the roundest number r in [lo, hi] nearest
// their middle, used as "v < r", or "v <= r" when r is lo. Integers need
// no finer threshold than an integer; floats go down to a millionth, then
// the middle.
func roundCut(lo, hi float64, isInt bool) (float64, bool) {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return hi, false
	}
	mid := (lo + hi) / 2
	pick := func(r float64) (float64, bool) { return r + 0, r == lo } // + 0: no negative zero
	// 10^15, 5·10^14, 10^14, ... down to 1 (integers) or 10^-6.
	for k := 15; k >= -6; k-- {
		if isInt && k < 0 {
			break
		}
		if r, ok := nearestMultiple(lo, hi, mid, 1, k); ok {
			return pick(r)
		}
		if isInt && k == 0 {
			break
		}
		if r, ok := nearestMultiple(lo, hi, mid, 5, k-1); ok {
			return pick(r)
		}
	}
	if isInt {
		return pick(math.Floor(mid) + 1)
	}
	return pick(mid)
}

// nearestMultiple is the multiple of m·10^k in [lo, hi] nearest mid (the
// smaller on ties), computed as a decimal (k < 0 divides by 10^-k so that
// 18.5 is the double nearest 18.5).
func nearestMultiple(lo, hi, mid, m float64, k int) (float64, bool) {
	scale := math.Pow(10, math.Abs(float64(k)))
	at := func(j float64) float64 {
		if k < 0 {
			return j * m / scale
		}
		return j * m * scale
	}
	unit := at(1)
	j := math.Round(mid / unit)
	best, found := 0.0, false
	for _, c := range []float64{j - 1, j, j + 1} {
		r := at(c)
		if r < lo || r > hi {
			continue
		}
		if !found || math.Abs(r-mid) < math.Abs(best-mid) {
			best, found = r, true
		}
	}
	return best, found
}
