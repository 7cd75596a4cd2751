package synth

import (
	"fmt"
	"strings"
	"time"
)

// Index-set decomposition. When the output is the list of the indices at
// which something holds ("the positions where a and b differ by more than
// limit", "where x exceeds its neighbour's twin"), every index of every
// example is one data point of a truth-valued function of the elements at
// that index of each list input, the integer inputs and the index itself,
// true where the index is listed. The enumerator searches that function
// on the data points (two examples of length 8 give 16); the program is
// the comprehension [i for i in range(len(xs)) if f(...)].

// Bounds of the decomposition: the size of the function searched and the
// share of the time left it may take.
const (
	indicesMaxSize = 6
	indicesShare   = 0.6
)

// indexSet says how a problem's inputs read as index features: which
// variables are lists (all of one length in an input) and which integers.
type indexSet struct {
	lists, ints []int
}

// newIndexSet reads a problem as an index set, or returns false when its
// output is not a list of integers, its inputs are not integer lists and
// integers (at least one list), or some output is not an increasing list
// of the lists' indices.
func newIndexSet(p *problem) (indexSet, bool) {
	var ix indexSet
	if p.out != tListInt || p.nullable || len(p.outs) == 0 {
		return ix, false
	}
	for v, t := range p.b.types {
		switch t {
		case tListInt:
			ix.lists = append(ix.lists, v)
		case tInt:
			ix.ints = append(ix.ints, v)
		default:
			return ix, false
		}
	}
	if len(ix.lists) == 0 {
		return ix, false
	}
	for e, o := range p.outs {
		n, good := ix.length(p.envs[e])
		if !good {
			return ix, false
		}
		prev := int64(-1)
		for _, i := range o.([]int64) {
			if i <= prev || i >= int64(n) {
				return ix, false
			}
			prev = i
		}
	}
	return ix, true
}

// length is the common length of the list inputs of an environment.
func (ix indexSet) length(env []any) (int, bool) {
	n := len(env[ix.lists[0]].([]int64))
	for _, v := range ix.lists[1:] {
		if len(env[v].([]int64)) != n {
			return 0, false
		}
	}
	return n, true
}

// features are the values of the function's variables at index i: each
// list's element, each integer input, then i.
func (ix indexSet) features(env []any, i int) []any {
	out := make([]any, 0, len(ix.lists)+len(ix.ints)+1)
	for _, v := range ix.lists {
		out = append(out, env[v].([]int64)[i])
	}
	for _, v := range ix.ints {
		out = append(out, env[v])
	}
	return append(out, int64(i))
}

// run applies the function at every index of an environment.
func (ix indexSet) run(fn *node, env []any) any {
	n, good := ix.length(env)
	if !good {
		return errV
	}
	out := []int64{}
	for i := range n {
		b, isBool := evalSafe(fn, ix.features(env, i)).(bool)
		if !isBool {
			return errV
		}
		if b {
			out = append(out, int64(i))
		}
	}
	return out
}

// indexDecomposition searches the function within its share of the time
// left; it reports whether consider accepted a program.
func indexDecomposition(en *sketchRun, p *problem, consider func(*node, []any) bool) bool {
	ix, good := newIndexSet(p)
	if !good || en.stopped {
		return false
	}
	var names []string
	var types []valType
	for _, v := range ix.lists {
		names, types = append(names, p.b.names[v]+"[i]"), append(types, tInt)
	}
	for _, v := range ix.ints {
		names, types = append(names, p.b.names[v]), append(types, tInt)
	}
	names, types = append(names, "i"), append(types, tInt)
	sub := &problem{b: &binding{names: names, types: types}, round: -1, mined: p.mined, out: tBool, ok: []valType{tBool}}
	for e, o := range p.outs {
		n, _ := ix.length(p.envs[e])
		listed := map[int64]bool{}
		for _, i := range o.([]int64) {
			listed[i] = true
		}
		for i := range n {
			if len(sub.outs) >= maxPointsSearched {
				break
			}
			sub.envs = append(sub.envs, ix.features(p.envs[e], i))
			sub.outs = append(sub.outs, listed[int64(i)])
		}
	}
	if len(sub.outs) < 4 {
		return false
	}
	deadline := time.Now().Add(time.Duration(float64(time.Until(en.deadline)) * indicesShare))
	fn := en.holeSearch(sub, deadline, en.done, indicesMaxSize, en.memLimit/4, false, false)
	if fn == nil {
		return false
	}
	n := indicesNode(p, ix, names, fn)
	vals := make([]any, len(en.envs))
	for i, env := range en.envs {
		vals[i] = ix.run(fn, env)
	}
	return consider(n, vals)
}

func indicesNode(p *problem, ix indexSet, names []string, fn *node) *node {
	op := &operator{Name: fmt.Sprintf("indices_where[%s]", fn), Args: p.b.types, Ret: tListInt, Fam: famList, Cost: 1,
		Eval: func(_ *lambda, a []any) any { return ix.run(fn, a) },
		Py: func(e *emitter, _ *lambda, a []code) code {
			vars := make([]code, len(names))
			for i, n := range names {
				vars[i] = atom(n)
			}
			cond := e.node(fn, vars).s
			first := p.b.names[ix.lists[0]]
			var same []string
			for _, v := range ix.lists[1:] {
				same = append(same, fmt.Sprintf("len(%s) == len(%s)", p.b.names[v], first))
			}
			body := ""
			if len(same) > 0 {
				body = fmt.Sprintf("    if not (%s):\n        raise ValueError(\"the lists differ in length\")\n", strings.Join(same, " and "))
			}
			body += fmt.Sprintf("    return [i for i in range(len(%s)) if %s]\n", first, cond)
			return call(e.loopHelper("indices_where", p.b.names, body), a...)
		}}
	return overVars(p, op, 2+fn.Size)
}
