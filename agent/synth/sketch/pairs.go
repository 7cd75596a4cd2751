package sketch

import (
	"fmt"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// First-pair search. When the output is a pair of indices [i, j] of a list
// input, or nothing ([] or null), it is the first pair in a scan order for
// which a condition holds: two elements adding up to a target, a slice
// xs[i:j] summing to it. Every pair scanned in an example up to the one
// given is a data point (false before it, true at it; all false when there
// is none) of a truth-valued function of the pair's features and the
// integer inputs, searched as a hole. The scans are: pairs of elements,
// by the second index then the first, or by the first then the second;
// and slices [i, j) by start then end, with their sum as the feature.

// pairScan is one scan order and the features it gives.
type pairScan struct {
	name string
	// slices: the pair is a slice [i, j) whose feature is its sum;
	// else a pair of elements i < j.
	slices bool
	// byFirst scans pairs of elements by i then j (else by j then i).
	byFirst bool
}

var pairScans = []pairScan{{name: "by_second"}, {name: "by_first", byFirst: true}, {name: "slices", slices: true}}

// Bounds of the search: the function's size, the data points and the
// share of the time left.
const (
	pairCondMax  = 5
	pairPointMax = 300
	pairShare    = 0.6
)

// pairProblem is how a problem reads as a pair search: its list input
// and its integer inputs.
type pairProblem struct {
	list int
	ints []int
	scan pairScan
	null bool // nothing found is null (a raise), else []
}

// walk calls f with the features of every pair of env in scan order until
// f returns true.
func (pp pairProblem) walk(env []any, f func(i, j int, feats []any) bool) {
	xs := env[pp.list].([]int64)
	n := len(xs)
	feats := func(i, j int, first []any) []any {
		out := append([]any{}, first...)
		for _, v := range pp.ints {
			out = append(out, env[v])
		}
		return append(out, int64(i), int64(j))
	}
	switch {
	case pp.scan.slices:
		for i := range n {
			var total int64
			for j := i + 1; j <= n; j++ {
				var good bool
				if total, good = dsl.AddI(total, xs[j-1]); !good {
					return
				}
				if f(i, j, feats(i, j, []any{total})) {
					return
				}
			}
		}
	case pp.scan.byFirst:
		for i := range n {
			for j := i + 1; j < n; j++ {
				if f(i, j, feats(i, j, []any{xs[i], xs[j]})) {
					return
				}
			}
		}
	default:
		for j := range n {
			for i := range j {
				if f(i, j, feats(i, j, []any{xs[i], xs[j]})) {
					return
				}
			}
		}
	}
}

func (pp pairProblem) run(cond *dsl.Node, env []any) any {
	var found []int64
	failed := false
	pp.walk(env, func(i, j int, feats []any) bool {
		b, isBool := dsl.EvalSafe(cond, feats).(bool)
		switch {
		case !isBool:
			failed = true
			return true
		case b:
			found = []int64{int64(i), int64(j)}
			return true
		}
		return false
	})
	switch {
	case failed:
		return dsl.ErrV
	case found != nil:
		return found
	case pp.null:
		return dsl.ErrV
	}
	return []int64{}
}

// names are the Python names of the condition's variables.
func (pp pairProblem) names(b *dsl.Binding) []string {
	xs := b.Names[pp.list]
	out := []string{xs + "[i]", xs + "[j]"}
	if pp.scan.slices {
		out = []string{"total"}
	}
	for _, v := range pp.ints {
		out = append(out, b.Names[v])
	}
	return append(out, "i", "j")
}

// FirstPair tries every scan within its share of the time left; it
// reports whether consider accepted a program.
func FirstPair(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if p.Out != dsl.ListInt || len(p.Outs) < 2 || en.Stopped {
		return false
	}
	pp := pairProblem{list: -1, null: p.Nullable}
	for v, t := range p.B.Types {
		switch {
		case t == dsl.ListInt && pp.list < 0:
			pp.list = v
		case t == dsl.Int:
			pp.ints = append(pp.ints, v)
		default:
			return false
		}
	}
	pairs := 0
	for _, o := range p.Outs {
		l, isList := o.([]int64)
		switch {
		case dsl.IsErr(o) || (isList && len(l) == 0 && !p.Nullable):
		case isList && len(l) == 2:
			pairs++
		default:
			return false
		}
	}
	if pp.list < 0 || pairs == 0 {
		return false
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * pairShare))
	for k, scan := range pairScans {
		pp.scan = scan
		cond := searchPairCond(p, pp, time.Now().Add(time.Until(until)/time.Duration(len(pairScans)-k)), en)
		if cond == nil {
			continue
		}
		vals := make([]any, len(en.Envs))
		for i, env := range en.Envs {
			vals[i] = pp.run(cond, env)
		}
		if consider(pairNode(p, pp, cond), vals) {
			return true
		}
	}
	return false
}

// searchPairCond builds the data points of one scan and searches the
// condition; nil when the scan never meets an output's pair or nothing
// fits.
func searchPairCond(p *dsl.Problem, pp pairProblem, deadline time.Time, en *Search) *dsl.Node {
	names := pp.names(p.B)
	types := make([]dsl.Type, len(names))
	for i := range types {
		types[i] = dsl.Int
	}
	sub := &dsl.Problem{B: &dsl.Binding{Names: names, Types: types}, Round: -1, Mined: p.Mined, Out: dsl.Bool, Ok: []dsl.Type{dsl.Bool}}
	// The pairs given first, so that every true point is searched on.
	var falses [][]any
	for e, o := range p.Outs {
		want, isList := o.([]int64)
		met := false
		pp.walk(p.Envs[e], func(i, j int, feats []any) bool {
			if isList && len(want) == 2 && int64(i) == want[0] && int64(j) == want[1] {
				sub.Envs, sub.Outs = append(sub.Envs, feats), append(sub.Outs, true)
				met = true
				return true
			}
			falses = append(falses, feats)
			return false
		})
		if isList && len(want) == 2 && !met {
			return nil
		}
	}
	for _, f := range falses {
		if len(sub.Envs) >= pairPointMax {
			break
		}
		sub.Envs, sub.Outs = append(sub.Envs, f), append(sub.Outs, false)
	}
	return en.holeSearch(sub, deadline, en.Done, pairCondMax, en.MemLimit/4, false, false)
}

func pairNode(p *dsl.Problem, pp pairProblem, cond *dsl.Node) *dsl.Node {
	names := pp.names(p.B)
	op := &dsl.Operator{Name: fmt.Sprintf("first_pair[%s: %s]", pp.scan.name, cond), Args: p.B.Types, Ret: dsl.ListInt, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return pp.run(cond, a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			vars := make([]dsl.Code, len(names))
			for i, n := range names {
				vars[i] = dsl.Atom(n)
			}
			c := e.Node(cond, vars).S
			xs := p.B.Names[pp.list]
			var sb strings.Builder
			switch {
			case pp.scan.slices:
				fmt.Fprintf(&sb, "    for i in range(len(%s)):\n        total = 0\n", xs)
				fmt.Fprintf(&sb, "        for j in range(i + 1, len(%s) + 1):\n            total += %s[j - 1]\n", xs, xs)
			case pp.scan.byFirst:
				fmt.Fprintf(&sb, "    for i in range(len(%s)):\n        for j in range(i + 1, len(%s)):\n", xs, xs)
			default:
				fmt.Fprintf(&sb, "    for j in range(len(%s)):\n        for i in range(j):\n", xs)
			}
			fmt.Fprintf(&sb, "            if %s:\n                return [i, j]\n", c)
			if pp.null {
				sb.WriteString("    raise ValueError(\"no pair fits\")\n")
			} else {
				sb.WriteString("    return []\n")
			}
			return dsl.Call(e.LoopHelper("first_pair", p.B.Names, sb.String()), a...)
		}}
	return overVars(p, op, 4+cond.Size)
}
