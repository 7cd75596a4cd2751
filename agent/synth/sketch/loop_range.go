package sketch

import (
	"fmt"
	"slices"

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
	for _, st := range starts {
		for _, sp := range steps {
			for _, t := range ints {
				if !lk.spend(1) {
					break
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

// intTerms are the constants of rangeConsts and the terms of integer
// values, smallest first.
func (lk *loopKit) intTerms() []*term {
	var out []*term
	for _, c := range rangeConsts {
		t := &term{n: &dsl.Node{Var: -1, Const: c, Size: 1}, typ: dsl.Int, shift: 2, i: make([]int64, len(lk.ps))}
		for e := range t.i {
			t.i[e] = c
		}
		out = append(out, t)
	}
	for _, ts := range lk.bySize {
		for _, t := range ts {
			if t.typ == dsl.Int && t.i != nil {
				out = append(out, t)
			}
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
