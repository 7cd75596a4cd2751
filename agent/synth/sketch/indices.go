package sketch

import (
	"fmt"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
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
func newIndexSet(p *dsl.Problem) (indexSet, bool) {
	var ix indexSet
	if p.Out != dsl.ListInt || p.Nullable || len(p.Outs) == 0 {
		return ix, false
	}
	for v, t := range p.B.Types {
		switch t {
		case dsl.ListInt:
			ix.lists = append(ix.lists, v)
		case dsl.Int:
			ix.ints = append(ix.ints, v)
		default:
			return ix, false
		}
	}
	if len(ix.lists) == 0 {
		return ix, false
	}
	for e, o := range p.Outs {
		n, good := ix.length(p.Envs[e])
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
func (ix indexSet) run(fn *dsl.Node, env []any) any {
	n, good := ix.length(env)
	if !good {
		return dsl.ErrV
	}
	out := []int64{}
	for i := range n {
		b, isBool := dsl.EvalSafe(fn, ix.features(env, i)).(bool)
		if !isBool {
			return dsl.ErrV
		}
		if b {
			out = append(out, int64(i))
		}
	}
	return out
}

// Indices searches the function within its share of the time
// left; it reports whether consider accepted a program.
func Indices(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	ix, good := newIndexSet(p)
	if !good || en.Stopped {
		return false
	}
	var names []string
	var types []dsl.Type
	for _, v := range ix.lists {
		names, types = append(names, p.B.Names[v]+"[i]"), append(types, dsl.Int)
	}
	for _, v := range ix.ints {
		names, types = append(names, p.B.Names[v]), append(types, dsl.Int)
	}
	names, types = append(names, "i"), append(types, dsl.Int)
	sub := &dsl.Problem{B: &dsl.Binding{Names: names, Types: types}, Round: -1, Mined: p.Mined, Out: dsl.Bool, Ok: []dsl.Type{dsl.Bool}}
	for e, o := range p.Outs {
		n, _ := ix.length(p.Envs[e])
		listed := map[int64]bool{}
		for _, i := range o.([]int64) {
			listed[i] = true
		}
		for i := range n {
			if len(sub.Outs) >= maxPointsSearched {
				break
			}
			sub.Envs = append(sub.Envs, ix.features(p.Envs[e], i))
			sub.Outs = append(sub.Outs, listed[int64(i)])
		}
	}
	if len(sub.Outs) < 4 {
		return false
	}
	deadline := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * indicesShare))
	fn := en.holeSearch(sub, deadline, en.Done, indicesMaxSize, en.MemLimit/4, false, false)
	if fn == nil {
		return false
	}
	n := indicesNode(p, ix, names, fn)
	vals := make([]any, len(en.Envs))
	for i, env := range en.Envs {
		vals[i] = ix.run(fn, env)
	}
	return consider(n, vals)
}

func indicesNode(p *dsl.Problem, ix indexSet, names []string, fn *dsl.Node) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("indices_where[%s]", fn), Args: p.B.Types, Ret: dsl.ListInt, Fam: dsl.FamList, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return ix.run(fn, a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			vars := make([]dsl.Code, len(names))
			for i, n := range names {
				vars[i] = dsl.Atom(n)
			}
			cond := e.Node(fn, vars).S
			first := p.B.Names[ix.lists[0]]
			var same []string
			for _, v := range ix.lists[1:] {
				same = append(same, fmt.Sprintf("len(%s) == len(%s)", p.B.Names[v], first))
			}
			body := ""
			if len(same) > 0 {
				body = fmt.Sprintf("    if not (%s):\n        raise ValueError(\"the lists differ in length\")\n", strings.Join(same, " and "))
			}
			body += fmt.Sprintf("    return [i for i in range(len(%s)) if %s]\n", first, cond)
			return dsl.Call(e.LoopHelper("indices_where", p.B.Names, body), a...)
		}}
	return overVars(p, op, 2+fn.Size)
}
