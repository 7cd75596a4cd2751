package sketch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The list of a range of integers with a step:
//
//	return list(range(start, stop, step))
//
// start, stop and step are terms over the integer parameters (or the
// constants 0, 1 and -1): the numbers from a to b in steps of c, the
// multiples of k up to n (range(k, n + 1, k)), a countdown. The levels
// do not reach it when the three are the positions of one list (the
// program reads xs[0], xs[1], xs[2]: size 10 and more), and the terms
// are chosen from the outputs rather than enumerated together: the
// start is each output's first number, the step the difference of its
// first two, and the stop any term inside the interval that ends the
// output (after its last number, at most one step beyond).

// maxRangeFits bounds the fillings that fit which the sketch offers
// (the first to a search, the others as rivals to a proposal's).
const maxRangeFits = 64

// rangeProg is one range.
type rangeProg struct {
	lp                *loopParams
	start, stop, step *dsl.Node
}

func (rp *rangeProg) run(env []any) any {
	ps, good := rp.lp.values(env)
	if !good {
		return dsl.ErrV
	}
	var b [3]int64
	for k, n := range [3]*dsl.Node{rp.start, rp.stop, rp.step} {
		v, isInt := dsl.EvalSafe(n, ps).(int64)
		if !isInt {
			return dsl.ErrV
		}
		b[k] = v
	}
	out, good := stepRange(b[0], b[1], b[2])
	if !good {
		return dsl.ErrV
	}
	return out
}

// stepRange is Python's list(range(start, stop, step)), failing as
// Python does on a step of 0, and past dsl.MaxLen numbers.
func stepRange(start, stop, step int64) ([]int64, bool) {
	n := rangeLen(start, stop, step)
	if step == 0 || n > dsl.MaxLen {
		return nil, false
	}
	out := make([]int64, n)
	for k := range out {
		out[k] = start + int64(k)*step
	}
	return out, true
}

// rangeLen is len(range(start, stop, step)) for a step other than 0.
func rangeLen(start, stop, step int64) int64 {
	if (stop > start) != (stop-start > 0) {
		return dsl.MaxLen + 1 // the difference overflows
	}
	switch {
	case step > 0 && stop > start:
		return (stop-start-1)/step + 1
	case step < 0 && stop < start:
		return (start-stop-1)/-step + 1
	}
	return 0
}

func (rp *rangeProg) python(e *dsl.Emitter) string {
	ps := rp.lp.codes()
	args := e.Node(rp.start, ps).S + ", " + e.Node(rp.stop, ps).S
	switch {
	case !isConst(rp.step, 1):
		args += ", " + e.Node(rp.step, ps).S
	case isConst(rp.start, 0):
		args = e.Node(rp.stop, ps).S
	}
	return rp.lp.unpack() + "    return list(range(" + args + "))\n"
}

// isConst reports whether a program is the integer constant c.
func isConst(n *dsl.Node, c int64) bool {
	v, isInt := n.Const.(int64)
	return n.Op == nil && n.Var < 0 && isInt && v == c
}

func (rp *rangeProg) node(p *dsl.Problem) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("range[%s, %s, %s]", rp.start, rp.stop, rp.step),
		Args: p.B.Types, Ret: dsl.ListInt, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return rp.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("stepped_range", rp.lp.progNames, rp.python(e)), a...)
		}}
	return overVars(p, op, 2+rp.start.Size+rp.stop.Size+rp.step.Size)
}

// rangeConsts are the constants a range's start or step may be.
var rangeConsts = []int64{0, 1, -1}

// rangeSketch searches the ranges whose list is every example's output,
// smallest first, within the phase's budget.
func rangeSketch(en *Search, p *dsl.Problem, lk *loopKit, consider func(*dsl.Node, []any) bool) bool {
	outs := make([][]int64, len(p.Outs))
	long := false
	for e, o := range p.Outs {
		l, isList := o.([]int64)
		if !isList || !arithmetic(l) {
			return false
		}
		outs[e] = l
		long = long || len(l) >= 2
	}
	if !long || len(lk.ps) != len(outs) {
		return false
	}
	ints := lk.intTerms()
	var starts, steps []*term
	for _, t := range ints {
		if rangeStarts(t, outs) {
			starts = append(starts, t)
		}
		if rangeSteps(t, outs) {
			steps = append(steps, t)
		}
	}
	type fit struct {
		start, stop, step *term
		size              int
	}
	var fits []fit
search:
	for _, st := range starts {
		for _, sp := range steps {
			for _, t := range ints {
				if !lk.spend(1) {
					break search
				}
				if rangeStops(st, sp, t, outs) {
					fits = append(fits, fit{st, t, sp, st.n.Size + t.n.Size + sp.n.Size})
				}
			}
		}
	}
	slices.SortStableFunc(fits, func(a, b fit) int { return a.size - b.size })
	for k, f := range fits {
		if k == maxRangeFits {
			break
		}
		rp := &rangeProg{lp: lk.lp, start: f.start.n, stop: f.stop.n, step: f.step.n}
		if offer(en, rp.node(p), consider) {
			return true
		}
	}
	return false
}

// intTerms are the terms of integer values, smallest first, with the
// constants of rangeConsts after the parameters themselves.
func (lk *loopKit) intTerms() []*term {
	var out []*term
	for s := range max(len(lk.bySize), 2) {
		if s < len(lk.bySize) {
			for _, t := range lk.bySize[s] {
				if t.typ == dsl.Int && t.i != nil {
					out = append(out, t)
				}
			}
		}
		if s != 1 {
			continue
		}
		for _, c := range rangeConsts {
			t := &term{n: &dsl.Node{Var: -1, Const: c, Size: 1}, typ: dsl.Int, shift: 2, i: make([]int64, len(lk.ps))}
			for e := range t.i {
				t.i[e] = c
			}
			out = append(out, t)
		}
	}
	return out
}

// arithmetic reports whether a list has one difference between
// neighbours, other than 0.
func arithmetic(l []int64) bool {
	for k := 2; k < len(l); k++ {
		if l[k]-l[k-1] != l[1]-l[0] {
			return false
		}
	}
	return len(l) < 2 || l[1] != l[0]
}

// rangeStarts reports whether a term is the first number of every output
// that has one.
func rangeStarts(t *term, outs [][]int64) bool {
	for e, o := range outs {
		if len(o) > 0 && (!t.good(e) || t.i[e] != o[0]) {
			return false
		}
	}
	return true
}

// rangeSteps reports whether a term is never 0 and the difference of the
// first two numbers of every output that has two.
func rangeSteps(t *term, outs [][]int64) bool {
	for e, o := range outs {
		if !t.good(e) || t.i[e] == 0 || len(o) >= 2 && t.i[e] != o[1]-o[0] {
			return false
		}
	}
	return true
}

// rangeStops reports whether the range of the three terms is every
// output (the start and step fit those that are not empty).
func rangeStops(start, step, stop *term, outs [][]int64) bool {
	for e, o := range outs {
		if !start.good(e) || !stop.good(e) || rangeLen(start.i[e], stop.i[e], step.i[e]) != int64(len(o)) {
			return false
		}
	}
	return true
}

// The filtered range:
//
//	return [i for i in range(start, stop, step) if keep(i)]
//
// when the outputs are increasing (step 1) or decreasing (step -1) but
// not by one difference: the multiples of 7 from a to b that are not
// multiples of 5. The start is a term at or before every output's first
// number, the stop one beyond its last; keep is a truth value of the
// index and the parameters, true where the output has the index and
// false elsewhere in the examples' ranges: one or two tests of size 5 or
// less collected by the enumerator (conjunction.go), with the moduli the
// kept and dropped numbers show among its constants. The ranges are
// tried smallest first, a few of them, each searched with a share of the
// budget.

// Bounds of the filtered range: the ranges tried, the size and number of
// the tests its condition is made of (conjunction.go),
// the size and number of the terms its start and stop are chosen from.
const (
	maxFilterRanges = 4
	filterTestSize  = 5
	maxFilterTests  = 6000
	filterEndSize   = 3
	maxFilterEnds   = 100
)

// filterProg is one filtered range.
type filterProg struct {
	rangeProg
	// keep is over [i, params...].
	keep *dsl.Node
}

func (fp *filterProg) run(env []any) any {
	ps, good := fp.lp.values(env)
	if !good {
		return dsl.ErrV
	}
	all, good := fp.rangeProg.run(env).([]int64)
	if !good {
		return dsl.ErrV
	}
	out := []int64{}
	kenv := append([]any{int64(0)}, ps...)
	for _, i := range all {
		kenv[0] = i
		switch dsl.EvalSafe(fp.keep, kenv) {
		case true:
			out = append(out, i)
		case false:
		default:
			return dsl.ErrV
		}
	}
	return out
}

func (fp *filterProg) python(e *dsl.Emitter) string {
	src := fp.rangeProg.python(e)
	cut := len(src) - len("))\n")
	keep := e.Node(fp.keep, append([]dsl.Code{dsl.Atom("i")}, fp.lp.codes()...)).S
	return strings.Replace(src[:cut], "    return list(range(", "    return [i for i in range(", 1) + ") if " + keep + "]\n"
}

func (fp *filterProg) node(p *dsl.Problem) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("range[%s, %s, %s if %s]", fp.start, fp.stop, fp.step, fp.keep),
		Args: p.B.Types, Ret: dsl.ListInt, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return fp.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("filtered_range", fp.lp.progNames, fp.python(e)), a...)
		}}
	return overVars(p, op, 3+fp.start.Size+fp.stop.Size+fp.step.Size+fp.keep.Size)
}

// filterSketch searches the filtered ranges whose list is every example's
// output.
func filterSketch(en *Search, p *dsl.Problem, lk *loopKit, consider func(*dsl.Node, []any) bool) bool {
	outs := make([][]int64, len(p.Outs))
	dir := int64(0)
	for e, o := range p.Outs {
		l, isList := o.([]int64)
		if !isList || len(lk.ps) != len(p.Outs) {
			return false
		}
		outs[e] = l
		for k := 1; k < len(l); k++ {
			d := int64(1)
			if l[k] < l[k-1] {
				d = -1
			}
			if l[k] == l[k-1] || dir != 0 && d != dir {
				return false
			}
			dir = d
		}
	}
	if dir == 0 {
		return false
	}
	ints := lk.intTerms()
	var starts, stops []*term
	for _, t := range ints {
		if t.n.Size > filterEndSize {
			break
		}
		if rangeEnds(t, outs, dir, true) && len(starts) < maxFilterEnds {
			starts = append(starts, t)
		}
		if rangeEnds(t, outs, dir, false) && len(stops) < maxFilterEnds {
			stops = append(stops, t)
		}
	}
	type bounds struct {
		start, stop *term
		size, rank  int
	}
	var pairs []bounds
	seen := map[string]bool{}
	for a, st := range starts {
		for b, sp := range stops {
			key, good := rangeKey(st, sp, dir, len(outs))
			if good && !seen[key] {
				seen[key] = true
				pairs = append(pairs, bounds{st, sp, st.n.Size + sp.n.Size, a + b})
			}
		}
	}
	// The smallest bounds first, and of those the first the enumerator
	// made (a + 1 before a ^ 1).
	slices.SortStableFunc(pairs, func(a, b bounds) int {
		if a.size != b.size {
			return a.size - b.size
		}
		return a.rank - b.rank
	})
	pairs = pairs[:min(len(pairs), maxFilterRanges)]
	step := &dsl.Node{Var: -1, Const: dir, Size: 1}
	for k, b := range pairs {
		if lk.spent() {
			return false
		}
		// The condition on the index alone first: its programs are far
		// fewer than those that read the parameters too.
		var keep *dsl.Node
		for _, alone := range []bool{true, false} {
			h := filterHole(lk, b.start, b.stop, dir, outs, alone)
			if len(h.envs) == 0 {
				break
			}
			f := 1 / float64(2*(len(pairs)-k))
			if !alone {
				f = 1 / float64(len(pairs)-k)
			}
			h.deadline, h.maxEval = lk.share(f)
			tests := collectTerms(en, p, h.termHole)
			lk.spend(int64(len(tests)))
			if keep = conjunction(tests, h.want); keep != nil || lk.spent() {
				break
			}
		}
		if keep == nil || !readsVar(keep, 0) {
			continue
		}
		fp := &filterProg{rangeProg: rangeProg{lp: lk.lp, start: b.start.n, stop: b.stop.n, step: step}, keep: keep}
		if offer(en, fp.node(p), consider) {
			return true
		}
		// A proposal's rival: the range one step longer, which the
		// examples may not tell apart (from a to b, b itself included).
		if en.Collect {
			longer := *fp
			longer.stop = &dsl.Node{Op: opIAdd, Kids: []*dsl.Node{b.stop.n, step}, Var: -1, Size: b.stop.n.Size + 2}
			if offer(en, longer.node(p), consider) {
				return true
			}
		}
	}
	return false
}

// filterHole is the search for a filtered range's condition: true at
// the indices of the range from start to stop that the output has,
// false at the others, over the index and the parameters (the index
// alone when alone). Its tests are truth values that read the index.
type filterTests struct {
	termHole
	want []bool
}

func filterHole(lk *loopKit, start, stop *term, dir int64, outs [][]int64, alone bool) filterTests {
	names, types := append([]string{"i"}, lk.lp.names...), append([]dsl.Type{dsl.Int}, lk.lp.types...)
	if alone {
		names, types = names[:1], types[:1]
	}
	h := filterTests{termHole: termHole{names: names, types: types, out: dsl.Bool, maxSize: filterTestSize, maxTerms: maxFilterTests,
		keep: func(n *dsl.Node) bool { return readsVar(n, 0) }}}
	var kept, dropped []int64
	for e, o := range outs {
		want := map[int64]bool{}
		for _, v := range o {
			want[v] = true
		}
		for i := start.i[e]; dir > 0 && i < stop.i[e] || dir < 0 && i > stop.i[e]; i += dir {
			env := []any{i}
			if !alone {
				env = append(env, lk.ps[e]...)
			}
			h.envs = append(h.envs, env)
			h.want = append(h.want, want[i])
			if want[i] {
				kept = append(kept, i)
			} else {
				dropped = append(dropped, i)
			}
		}
	}
	h.consts = moduli(kept, dropped)
	return h
}

// moduli are the constants a filter's condition may test divisibility
// by, read off the numbers it keeps and drops: g, the greatest common
// divisor of those kept (the multiples of 7), and, of the dropped
// numbers that g divides, their common divisor over g and its prime
// factors (105 dropped among the multiples of 7: 15, 3 and 5).
func moduli(kept, dropped []int64) []any {
	g := int64(0)
	for _, v := range kept {
		g = gcd(g, v)
	}
	if g < 2 {
		return nil
	}
	out := []any{g}
	h := int64(0)
	for _, v := range dropped {
		if v%g == 0 {
			h = gcd(h, v/g)
		}
	}
	if h < 2 || h > 1<<20 {
		return out
	}
	out = append(out, h)
	for f, r := int64(2), h; f <= r; f++ {
		if r%f == 0 {
			if f != h {
				out = append(out, f)
			}
			for r%f == 0 {
				r /= f
			}
		}
	}
	return out
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// rangeEnds reports whether a term can start (first) or stop a range in
// direction dir that holds every output: at or before its first number,
// or beyond its last; the range of an example is at most maxTraceEnvs
// long.
func rangeEnds(t *term, outs [][]int64, dir int64, first bool) bool {
	for e, o := range outs {
		if !t.good(e) {
			return false
		}
		if len(o) == 0 {
			continue
		}
		v := t.i[e]
		if first && ((v-o[0])*dir > 0 || (o[len(o)-1]-v)*dir > maxTraceEnvs) {
			return false
		}
		if !first && ((v-o[len(o)-1])*dir <= 0 || (v-o[0])*dir > maxTraceEnvs) {
			return false
		}
	}
	return true
}

// rangeKey names the ranges a start and a stop give on the examples,
// false when they hold more than maxTraceEnvs indices together.
func rangeKey(start, stop *term, dir int64, examples int) (string, bool) {
	var sb strings.Builder
	total := int64(0)
	for e := range examples {
		total += rangeLen(start.i[e], stop.i[e], dir)
		fmt.Fprintf(&sb, "%d:%d,", start.i[e], stop.i[e])
	}
	return sb.String(), total <= maxTraceEnvs
}
