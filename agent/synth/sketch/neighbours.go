package sketch

import (
	"fmt"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Neighbour scans. When the output lists the indices of one list at
// which a test of the element and its neighbours holds ("the local
// peaks", "where the sequence turns", "the elements larger than the one
// before"), every position that has the neighbours the test reads is a
// data point of a truth function of the previous element, the element,
// the next one and the integer inputs; positions without them (the ends)
// are never listed. The enumerator searches the function; the program is
// the loop over the inner positions.

// neighbourSpan is which neighbours a scan reads: the previous element,
// the next, or both.
type neighbourSpan struct {
	prev, next bool
}

// neighbourSpans are tried in order: both neighbours, the previous only,
// the next only.
var neighbourSpans = []neighbourSpan{{true, true}, {true, false}, {false, true}}

// Bounds of the scan: the size of the test and the share of the time
// left it may take.
const (
	neighbourMaxSize = 7
	neighbourShare   = 0.3
)

// lo and hi bound the positions of a list of n that have the neighbours.
func (ns neighbourSpan) bounds(n int) (int, int) {
	lo, hi := 0, n
	if ns.prev {
		lo = 1
	}
	if ns.next {
		hi = n - 1
	}
	return lo, hi
}

// names are the test's variables: the neighbours read, the element, the
// integer inputs.
func (ns neighbourSpan) names(p *dsl.Problem, ints []int) []string {
	var out []string
	if ns.prev {
		out = append(out, "prev")
	}
	out = append(out, "x")
	if ns.next {
		out = append(out, "nxt")
	}
	for _, v := range ints {
		out = append(out, p.B.Names[v])
	}
	return out
}

// features are the test's variables at position i.
func (ns neighbourSpan) features(xs []int64, env []any, ints []int, i int) []any {
	var out []any
	if ns.prev {
		out = append(out, xs[i-1])
	}
	out = append(out, xs[i])
	if ns.next {
		out = append(out, xs[i+1])
	}
	for _, v := range ints {
		out = append(out, env[v])
	}
	return out
}

// neighbourScan is a filling: the list, the integer inputs, the span and
// the test.
type neighbourScan struct {
	list int
	ints []int
	span neighbourSpan
	fn   *dsl.Node
}

func (sc neighbourScan) run(env []any) any {
	xs := env[sc.list].([]int64)
	lo, hi := sc.span.bounds(len(xs))
	out := []int64{}
	for i := lo; i < hi; i++ {
		b, isBool := dsl.EvalSafe(sc.fn, sc.span.features(xs, env, sc.ints, i)).(bool)
		if !isBool {
			return dsl.ErrV
		}
		if b {
			out = append(out, int64(i))
		}
	}
	return out
}

// NeighbourIndices searches the test for each span in turn, within its
// share of the time left; it reports whether consider accepted a program.
func NeighbourIndices(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	ix, good := newIndexSet(p)
	if !good || len(ix.lists) != 1 || en.Stopped {
		return false
	}
	list := ix.lists[0]
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * neighbourShare))
	for s, span := range neighbourSpans {
		sub, good := neighbourPoints(p, list, ix.ints, span)
		if !good {
			continue
		}
		left := time.Until(until)
		if left <= 0 || en.interrupted() {
			return false
		}
		fn := en.holeSearch(sub, time.Now().Add(left/time.Duration(len(neighbourSpans)-s)), en.Done, neighbourMaxSize, en.MemLimit/4, false, false)
		if fn != nil && offer(en, neighbourNode(p, neighbourScan{list: list, ints: ix.ints, span: span, fn: fn}), consider) {
			return true
		}
	}
	return false
}

// neighbourPoints are the data points of a span's test, or false when an
// output lists a position without the span's neighbours or the points
// are too few or all alike.
func neighbourPoints(p *dsl.Problem, list int, ints []int, span neighbourSpan) (*dsl.Problem, bool) {
	types := []dsl.Type{dsl.Int}
	if span.prev {
		types = append(types, dsl.Int)
	}
	if span.next {
		types = append(types, dsl.Int)
	}
	for range ints {
		types = append(types, dsl.Int)
	}
	sub := &dsl.Problem{B: &dsl.Binding{Names: span.names(p, ints), Types: types}, Round: -1, Mined: p.Mined, Out: dsl.Bool, Ok: []dsl.Type{dsl.Bool}}
	trues := 0
	for e, o := range p.Outs {
		xs := p.Envs[e][list].([]int64)
		lo, hi := span.bounds(len(xs))
		listed := map[int64]bool{}
		for _, i := range o.([]int64) {
			if int(i) < lo || int(i) >= hi {
				return nil, false
			}
			listed[i] = true
		}
		for i := lo; i < hi && len(sub.Outs) < maxPointsSearched; i++ {
			sub.Envs = append(sub.Envs, span.features(xs, p.Envs[e], ints, i))
			sub.Outs = append(sub.Outs, listed[int64(i)])
			if listed[int64(i)] {
				trues++
			}
		}
	}
	return sub, len(sub.Outs) >= 6 && trues > 0 && trues < len(sub.Outs)
}

func neighbourNode(p *dsl.Problem, sc neighbourScan) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("neighbour_indices[%v %v: %s]", sc.span.prev, sc.span.next, sc.fn), Args: p.B.Types, Ret: dsl.ListInt, Fam: dsl.FamList, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return sc.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			names := sc.span.names(p, sc.ints)
			vars := make([]dsl.Code, len(names))
			for i, n := range names {
				vars[i] = dsl.Atom(n)
			}
			xs := p.B.Names[sc.list]
			lo, hi := "0", "len("+xs+")"
			if sc.span.prev {
				lo = "1"
			}
			if sc.span.next {
				hi = "len(" + xs + ") - 1"
			}
			body := "    out = []\n" + fmt.Sprintf("    for i in range(%s, %s):\n", lo, hi)
			if sc.span.prev {
				body += fmt.Sprintf("        prev = %s[i - 1]\n", xs)
			}
			body += fmt.Sprintf("        x = %s[i]\n", xs)
			if sc.span.next {
				body += fmt.Sprintf("        nxt = %s[i + 1]\n", xs)
			}
			body += fmt.Sprintf("        if %s:\n            out.append(i)\n    return out\n", e.Node(sc.fn, vars).S)
			return dsl.Call(e.LoopHelper("neighbour_indices", p.B.Names, body), a...)
		}}
	return overVars(p, op, 2+sc.fn.Size)
}
