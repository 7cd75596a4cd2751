package sketch

import (
	"math/bits"
	"slices"
	"strconv"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The count or the sum of a filtered range:
//
//	return len([i for i in range(start, stop) if keep(i)])
//	return sum([i for i in range(start, stop) if keep(i)])
//
// when the output is an integer: how many multiples of 7 lie between a
// and b, the sum of the numbers below n that are multiples of 3 or 5.
// Unlike the filtered range whose list is the output (loop_range.go),
// nothing shows which indices are kept: keep is a condition of the index
// alone — one test, or two joined by and or or, either negated — with the
// tests (truth values of size 5 or less) collected once over every index
// the ranges tried cover, as bit sets. A filling is checked by its count
// or sum over each example's range, the examples with the shortest ranges
// first; a single test by prefix sums, a pair word by word.

// Bounds of the count and the sum: the ranges tried and the terms their
// ends are chosen from, the tests collected, and the literals (tests and
// their negations) paired.
const (
	maxCountRanges = 256
	maxCountEnds   = 400
	countTestSize  = 5
	maxCountTests  = 3000
	maxPairedLits  = 160
)

// Operators of the count and the sum of a list of integers.
var (
	opLenInts = dsl.Catalog.Find("len", dsl.ListInt)
	opSumInts = dsl.Catalog.Find("sum", dsl.ListInt)
)

// countRange is one range tried: from start to stop (stop + 1 when incl)
// in steps of 1; lo and hi are its ends on each example (hi excluded).
type countRange struct {
	start, stop *term
	incl        bool
	lo, hi      []int64
	size, rank  int
	// count and sum say whether the outputs can be counts, sums.
	count, sum bool
}

// countDomain holds the literals over the indices lo, lo + 1, … that the
// ranges cover, as bit sets, with their prefix counts and sums.
type countDomain struct {
	lo   int64
	lits []countLit
}

type countLit struct {
	literal
	// count[k] and sum[k] are the number and the sum of the indices
	// before lo + k where the literal holds.
	count, sum []int64
}

// agg is the count (sum false) or the sum of the indices in [lo, hi)
// where l holds.
func (d *countDomain) agg(l *countLit, lo, hi int64, sum bool) int64 {
	a, b := lo-d.lo, hi-d.lo
	if b <= a {
		return 0
	}
	if sum {
		return l.sum[b] - l.sum[a]
	}
	return l.count[b] - l.count[a]
}

// aggPair is the count or the sum over [lo, hi) of the indices where a
// and b both hold (or) or either does (or).
func (d *countDomain) aggPair(a, b *countLit, or bool, lo, hi int64, sum bool) int64 {
	s, e := lo-d.lo, hi-d.lo
	total := int64(0)
	for k := s; k < e; {
		w := k / 64
		word := a.bits[w] & b.bits[w]
		if or {
			word = a.bits[w] | b.bits[w]
		}
		// The bits of this word in [k, e).
		word >>= uint(k % 64)
		n := min(64-k%64, e-k)
		if n < 64 {
			word &= 1<<uint(n) - 1
		}
		if !sum {
			total += int64(bits.OnesCount64(word))
		} else {
			for word != 0 {
				total += d.lo + k + int64(bits.TrailingZeros64(word))
				word &= word - 1
			}
		}
		k += n
	}
	return total
}

// countSketch searches the counts and sums of filtered ranges that are
// every example's output.
func countSketch(en *Search, p *dsl.Problem, lk *loopKit, consider func(*dsl.Node, []any) bool) bool {
	if opLenInts == nil || opSumInts == nil || opAnd == nil || opOr == nil || len(lk.ps) != len(p.Outs) {
		return false
	}
	outs := make([]int64, len(p.Outs))
	for e, o := range p.Outs {
		v, isInt := o.(int64)
		if !isInt {
			return false
		}
		outs[e] = v
	}
	ranges := countRanges(lk, outs)
	if len(ranges) == 0 || lk.spent() {
		return false
	}
	d := countTests(en, p, lk, ranges)
	if d == nil {
		// No range spans an index: there is nothing to test.
		return false
	}
	// The single tests first, over every range, then the pairs.
	for _, sum := range []bool{false, true} {
		for _, r := range ranges {
			if !sum && !r.count || sum && !r.sum {
				continue
			}
			order := shortestFirst(r)
			for k := range d.lits {
				l := &d.lits[k]
				if !lk.spend(1) {
					return false
				}
				if fitsCount(order, outs, func(e int) int64 { return d.agg(l, r.lo[e], r.hi[e], sum) }) &&
					offerCount(en, p, lk, r, l.node(), sum, consider) {
					return true
				}
			}
		}
	}
	paired := d.lits[:min(len(d.lits), maxPairedLits)]
	for _, sum := range []bool{false, true} {
		for _, r := range ranges {
			if !sum && !r.count || sum && !r.sum {
				continue
			}
			order := shortestFirst(r)
			for a := range paired {
				for b := a + 1; b < len(paired); b++ {
					for _, or := range []bool{false, true} {
						if !lk.spend(1) {
							return false
						}
						la, lb := &paired[a], &paired[b]
						if !fitsCount(order, outs, func(e int) int64 { return d.aggPair(la, lb, or, r.lo[e], r.hi[e], sum) }) {
							continue
						}
						op := opAnd
						if or {
							op = opOr
						}
						x, y := la.node(), lb.node()
						keep := &dsl.Node{Op: op, Kids: []*dsl.Node{x, y}, Var: -1, Size: 1 + x.Size + y.Size}
						if offerCount(en, p, lk, r, keep, sum, consider) {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// fitsCount reports whether agg is every example's output, checked in
// the order given.
func fitsCount(order []int, outs []int64, agg func(e int) int64) bool {
	for _, e := range order {
		if agg(e) != outs[e] {
			return false
		}
	}
	return true
}

// offerCount offers the count or the sum of the range r filtered by
// keep, a condition of the index.
func offerCount(en *Search, p *dsl.Problem, lk *loopKit, r countRange, keep *dsl.Node, sum bool, consider func(*dsl.Node, []any) bool) bool {
	step := &dsl.Node{Var: -1, Const: int64(1), Size: 1}
	stop := r.stop.n
	if r.incl {
		stop = &dsl.Node{Op: opIAdd, Kids: []*dsl.Node{stop, step}, Var: -1, Size: stop.Size + 2}
	}
	fp := &filterProg{rangeProg: rangeProg{lp: lk.lp, start: r.start.n, stop: stop, step: step}, keep: keep}
	list := fp.node(p)
	op := opLenInts
	if sum {
		op = opSumInts
	}
	return offer(en, &dsl.Node{Op: op, Kids: []*dsl.Node{list}, Var: -1, Size: 1 + list.Size}, consider)
}

// shortestFirst orders the examples by the length of their range.
func shortestFirst(r countRange) []int {
	order := make([]int, len(r.lo))
	for e := range order {
		order[e] = e
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return int(max(r.hi[a]-r.lo[a], 0) - max(r.hi[b]-r.lo[b], 0))
	})
	return order
}

// countRanges are the ranges of integer terms of size filterEndSize or
// less that can hold every example's output as a count or a sum (a count
// no larger than the range, a sum no larger than the sum of the
// magnitudes in it), the smallest first, no two alike on the examples,
// and together covering at most maxTraceEnvs indices.
func countRanges(lk *loopKit, outs []int64) []countRange {
	var ends []*term
	for _, t := range lk.intTerms() {
		if t.n.Size <= filterEndSize && len(ends) < maxCountEnds {
			ends = append(ends, t)
		}
	}
	var out []countRange
	seen := map[string]bool{}
	for a, st := range ends {
		for b, sp := range ends {
			for _, incl := range []bool{false, true} {
				r := countRange{start: st, stop: sp, incl: incl, size: st.n.Size + sp.n.Size, rank: a + b}
				if incl {
					r.size += 2
				}
				if key, good := r.fill(outs); good && !seen[key] {
					seen[key] = true
					out = append(out, r)
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b countRange) int {
		if a.size != b.size {
			return a.size - b.size
		}
		return a.rank - b.rank
	})
	// The ranges together cover at most maxTraceEnvs indices.
	var kept []countRange
	lo, hi := int64(0), int64(0)
	for _, r := range out {
		if len(kept) == maxCountRanges {
			break
		}
		l, h := lo, hi
		for e := range r.lo {
			if r.hi[e] > r.lo[e] {
				if l == h {
					l, h = r.lo[e], r.hi[e]
				}
				l, h = min(l, r.lo[e]), max(h, r.hi[e])
			}
		}
		if h-l <= maxTraceEnvs {
			kept = append(kept, r)
			lo, hi = l, h
		}
	}
	return kept
}

// fill sets the range's ends on the examples and names them; it reports
// false when a term fails on an example, a range is empty everywhere or
// longer than maxTraceEnvs, two examples of one range have different
// outputs, or the outputs can be neither counts nor sums over the ranges
// (feasible).
func (r *countRange) fill(outs []int64) (string, bool) {
	var key []byte
	some := false
	for e, out := range outs {
		if !r.start.good(e) || !r.stop.good(e) {
			return "", false
		}
		lo, hi := r.start.i[e], r.stop.i[e]
		if r.incl {
			hi++
		}
		if hi-lo > maxTraceEnvs {
			return "", false
		}
		some = some || hi > lo
		// The condition reads the index alone: one range, one output.
		for f := range r.lo {
			if r.lo[f] == lo && r.hi[f] == hi && outs[f] != out {
				return "", false
			}
		}
		r.lo, r.hi = append(r.lo, lo), append(r.hi, hi)
		key = append(strconv.AppendInt(append(strconv.AppendInt(key, lo, 10), ':'), hi, 10), ',')
	}
	r.count, r.sum = r.feasible(outs, false), r.feasible(outs, true)
	return string(key), some && (r.count || r.sum)
}

// feasible reports whether the outputs can be the counts (the sums) of
// some indices of each example's range: each within what its whole range
// allows, and where one range holds another, the difference of their
// outputs within what the indices of the one and not the other allow.
func (r *countRange) feasible(outs []int64, sum bool) bool {
	within := func(v, lo, hi int64) bool {
		if hi <= lo {
			return v == 0
		}
		if !sum {
			return v >= 0 && v <= hi-lo
		}
		neg, pos := signedSums(lo, hi)
		return v >= neg && v <= pos
	}
	for e, out := range outs {
		if !within(out, r.lo[e], r.hi[e]) {
			return false
		}
	}
	for e := range outs {
		for f := range outs {
			le, he, lf, hf := r.lo[e], r.hi[e], r.lo[f], r.hi[f]
			if e == f || he <= le || lf > le || hf < he {
				continue
			}
			// [le, he) inside [lf, hf): the rest is [lf, le) and [he, hf).
			d := outs[f] - outs[e]
			if !sum {
				if d < 0 || d > (le-lf)+(hf-he) {
					return false
				}
				continue
			}
			n1, p1 := signedSums(lf, le)
			n2, p2 := signedSums(he, hf)
			if d < n1+n2 || d > p1+p2 {
				return false
			}
		}
	}
	return true
}

// signedSums are the sums of the negative and of the positive integers
// in [lo, hi).
func signedSums(lo, hi int64) (neg, pos int64) {
	tri := func(n int64) int64 { return n * (n + 1) / 2 } // 1 + … + n
	if hi <= lo {
		return 0, 0
	}
	if lo < 0 {
		// -1 … lo, those below hi.
		top := min(hi-1, -1)
		neg = -(tri(-lo) - tri(-top-1))
	}
	if hi > 1 {
		bottom := max(lo, 1)
		pos = tri(hi-1) - tri(bottom-1)
	}
	return neg, pos
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// countTests collects the truth values of the index of size countTestSize
// or less over every index the ranges cover, and returns them and their
// negations as literals, one for each set of indices, smallest first.
func countTests(en *Search, p *dsl.Problem, lk *loopKit, ranges []countRange) *countDomain {
	lo, hi := int64(0), int64(0)
	for _, r := range ranges {
		for e := range r.lo {
			if r.hi[e] > r.lo[e] {
				if lo == hi {
					lo, hi = r.lo[e], r.hi[e]
				}
				lo, hi = min(lo, r.lo[e]), max(hi, r.hi[e])
			}
		}
	}
	if hi <= lo {
		return nil
	}
	h := termHole{names: []string{"i"}, types: []dsl.Type{dsl.Int}, out: dsl.Bool, maxSize: countTestSize, maxTerms: maxCountTests,
		keep: func(n *dsl.Node) bool { return readsVar(n, 0) }}
	for i := lo; i < hi; i++ {
		h.envs = append(h.envs, []any{i})
	}
	h.deadline, h.maxEval = lk.share(0.5)
	tests := collectTerms(en, p, h)
	lk.spend(int64(len(tests)))
	d := &countDomain{lo: lo}
	words := (int(hi-lo) + 63) / 64
	seen := map[string]bool{}
	add := func(t *term, neg bool) {
		l := countLit{literal: literal{t: t, neg: neg, bits: make([]uint64, words), size: t.n.Size}}
		l.count, l.sum = make([]int64, len(t.b)+1), make([]int64, len(t.b)+1)
		for k, v := range t.b {
			l.count[k+1], l.sum[k+1] = l.count[k], l.sum[k]
			if v != neg {
				l.bits[k/64] |= 1 << uint(k%64)
				l.count[k+1]++
				l.sum[k+1] += lo + int64(k)
			}
		}
		if neg {
			l.size++
		}
		// A test true everywhere or nowhere keeps the whole range or
		// none of it: not a filter.
		if n := l.count[len(t.b)]; n == 0 || n == int64(len(t.b)) {
			return
		}
		key := string(bitsKey(l.bits))
		if !seen[key] {
			seen[key] = true
			d.lits = append(d.lits, l)
		}
	}
	for _, t := range tests {
		if t.b == nil || t.bad != nil && hasTrue(t.bad) || len(t.b) != int(hi-lo) {
			continue
		}
		add(t, false)
	}
	for _, t := range tests {
		if t.b != nil && (t.bad == nil || !hasTrue(t.bad)) && len(t.b) == int(hi-lo) {
			add(t, true)
		}
	}
	slices.SortStableFunc(d.lits, func(a, b countLit) int { return a.size - b.size })
	return d
}

// bitsKey is a bit set as bytes, a map key.
func bitsKey(bs []uint64) []byte {
	out := make([]byte, 0, 8*len(bs))
	for _, w := range bs {
		for s := 0; s < 64; s += 8 {
			out = append(out, byte(w>>uint(s)))
		}
	}
	return out
}
