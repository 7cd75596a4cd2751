package sketch

import (
	"fmt"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The 1-D recurrence sketches over the elements of an integer list (the
// list counterpart of dp.go), each a loop whose holes
// are lambdas of the bank, smallest first:
//
//   - the two-back recurrence: before, last = 0, 0 and, for every
//     element x, before, last = last, join(last, h(before, x)), the result
//     being last; join is max, min or +. The best sum with no two adjacent
//     elements taken is join = max, h = before + x; a Fibonacci-like fold
//     is join = +, h = before.
//   - the pairwise table: best[i] = w(x_i) + the largest best[j] over the
//     j < i with rel(x_j, x_i) (0 when there is none), the result being
//     the largest best (0 for an empty list); w is 1 or the element. The
//     longest increasing (non-decreasing, decreasing...) subsequence and
//     the best sum of one are such tables, rel choosing which.
//
// Programs of this shape are far beyond the sizes the levels reach: the
// sketch fills the holes and checks each filling on the examples.

// Sizes of the lambdas tried in the holes.
const (
	listDPStepMax = 5 // h(before, x)
	listDPRelMax  = 4 // rel(x_j, x_i)
)

// listDPMaxLen bounds the lists the pairwise table runs on (it is
// quadratic).
const listDPMaxLen = 2000

// listJoins are the ways the two-back recurrence combines last with
// h(before, x).
var listJoins = []struct {
	name, py string
	f        func(a, b int64) (int64, bool)
}{
	{"max", "max(%s, %s)", func(a, b int64) (int64, bool) { return max(a, b), true }},
	{"min", "min(%s, %s)", func(a, b int64) (int64, bool) { return min(a, b), true }},
	{"add", "%s + %s", dsl.AddI},
}

// twoBack is one filling of the two-back recurrence.
type twoBack struct {
	join int
	h    *dsl.Lambda
}

func (t twoBack) run(xs []int64) (v any) {
	defer func() {
		if recover() != nil {
			v = dsl.ErrV
		}
	}()
	var before, last int64
	for _, x := range xs {
		hv, good := dsl.Lam2[int64, int64, int64](nil, t.h, before, x)
		if !good {
			return dsl.ErrV
		}
		next, good := listJoins[t.join].f(last, hv)
		if !good {
			return dsl.ErrV
		}
		before, last = last, next
	}
	return last
}

// pairTable is one filling of the pairwise table.
type pairTable struct {
	rel    *dsl.Lambda
	weight bool // w(x) = x instead of 1
}

func (t pairTable) run(xs []int64) (v any) {
	defer func() {
		if recover() != nil {
			v = dsl.ErrV
		}
	}()
	if len(xs) > listDPMaxLen {
		return dsl.ErrV
	}
	best := make([]int64, len(xs))
	var top int64
	for i, x := range xs {
		var prev int64 // max([best[j] for j < i if rel], default=0)
		have := false
		for j := range i {
			ok, isBool := dsl.Lam2[int64, int64, bool](nil, t.rel, xs[j], x)
			if !isBool {
				return dsl.ErrV
			}
			if ok && (!have || best[j] > prev) {
				prev, have = best[j], true
			}
		}
		w := int64(1)
		if t.weight {
			w = x
		}
		var good bool
		if best[i], good = dsl.AddI(w, prev); !good {
			return dsl.ErrV
		}
		if i == 0 || best[i] > top {
			top = best[i]
		}
	}
	return top
}

// ListDP tries both sketches when the input is one integer list and
// the output an integer; it reports whether consider accepted a program.
func ListDP(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if len(p.B.Types) != 1 || p.B.Types[0] != dsl.ListInt || p.Out != dsl.Int || p.Nullable || len(p.Outs) < 2 || en.Stopped {
		return false
	}
	arg := func(env []any) []int64 { return env[0].([]int64) }
	var backs []twoBack
	for size := 1; size <= listDPStepMax; size++ {
		for _, h := range en.Lambdas.Get(dsl.SigII, dsl.Int, size) {
			for j := range listJoins {
				backs = append(backs, twoBack{join: j, h: h})
			}
		}
	}
	if fillSketch(en, p, backs, func(t twoBack, env []any) any { return t.run(arg(env)) },
		func(t twoBack) *dsl.Node { return twoBackNode(p, t) }, consider) {
		return true
	}
	var tables []pairTable
	for _, weight := range []bool{false, true} {
		for size := 1; size <= listDPRelMax; size++ {
			for _, rel := range en.Lambdas.Get(dsl.SigII, dsl.Bool, size) {
				if usesBoth(rel) {
					tables = append(tables, pairTable{rel: rel, weight: weight})
				}
			}
		}
	}
	return fillSketch(en, p, tables, func(t pairTable, env []any) any { return t.run(arg(env)) },
		func(t pairTable) *dsl.Node { return pairTableNode(p, t) }, consider)
}

// usesBoth reports whether a binary lambda reads both its variables (a
// relation of one element alone does not relate the pair).
func usesBoth(l *dsl.Lambda) bool {
	var seen [2]bool
	var walk func(n *dsl.Node)
	walk = func(n *dsl.Node) {
		if n.Op == nil {
			if n.Var >= 0 && n.Var < 2 {
				seen[n.Var] = true
			}
			return
		}
		for _, k := range n.Kids {
			walk(k)
		}
	}
	if l.Body == nil {
		return false
	}
	walk(l.Body)
	return seen[0] && seen[1]
}

func twoBackNode(p *dsl.Problem, t twoBack) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("list_recurrence[%s, %s]", listJoins[t.join].name, t.h), Args: p.B.Types, Ret: dsl.Int,
		Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return t.run(a[0].([]int64)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			h := e.Lam(t.h, dsl.Atom("before"), dsl.Atom("x")).S
			body := fmt.Sprintf("    before, last = 0, 0\n    for x in %s:\n        before, last = last, %s\n    return last\n",
				p.B.Names[0], fmt.Sprintf(listJoins[t.join].py, "last", h))
			return dsl.Call(e.LoopHelper("list_recurrence", p.B.Names, body), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: 4 + t.h.Size}
}

func pairTableNode(p *dsl.Problem, t pairTable) *dsl.Node {
	w := "1"
	if t.weight {
		w = "x"
	}
	op := &dsl.Operator{Name: fmt.Sprintf("pair_table[%s, w=%s]", t.rel, w), Args: p.B.Types, Ret: dsl.Int, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return t.run(a[0].([]int64)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			xs := p.B.Names[0]
			rel := e.Lam(t.rel, dsl.Atom(xs+"[j]"), dsl.Atom("x")).S
			body := fmt.Sprintf("    best = []\n    for i, x in enumerate(%s):\n"+
				"        best.append(%s + max([best[j] for j in range(i) if %s], default=0))\n"+
				"    return max(best, default=0)\n", xs, w, rel)
			return dsl.Call(e.LoopHelper("pair_table", p.B.Names, body), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: 5 + t.rel.Size}
}
