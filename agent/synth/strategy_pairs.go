package synth

import (
	"fmt"
	"strings"
	"time"
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
				if total, good = addI(total, xs[j-1]); !good {
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

func (pp pairProblem) run(cond *node, env []any) any {
	var found []int64
	failed := false
	pp.walk(env, func(i, j int, feats []any) bool {
		b, isBool := evalSafe(cond, feats).(bool)
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
		return errV
	case found != nil:
		return found
	case pp.null:
		return errV
	}
	return []int64{}
}

// names are the Python names of the condition's variables.
func (pp pairProblem) names(b *binding) []string {
	xs := b.names[pp.list]
	out := []string{xs + "[i]", xs + "[j]"}
	if pp.scan.slices {
		out = []string{"total"}
	}
	for _, v := range pp.ints {
		out = append(out, b.names[v])
	}
	return append(out, "i", "j")
}

// firstPair tries every scan within its share of the time left; it
// reports whether consider accepted a program.
func firstPair(en *sketchRun, p *problem, consider func(*node, []any) bool) bool {
	if p.out != tListInt || len(p.outs) < 2 || en.stopped {
		return false
	}
	pp := pairProblem{list: -1, null: p.nullable}
	for v, t := range p.b.types {
		switch {
		case t == tListInt && pp.list < 0:
			pp.list = v
		case t == tInt:
			pp.ints = append(pp.ints, v)
		default:
			return false
		}
	}
	pairs := 0
	for _, o := range p.outs {
		l, isList := o.([]int64)
		switch {
		case isErr(o) || (isList && len(l) == 0 && !p.nullable):
		case isList && len(l) == 2:
			pairs++
		default:
			return false
		}
	}
	if pp.list < 0 || pairs == 0 {
		return false
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.deadline)) * pairShare))
	for k, scan := range pairScans {
		pp.scan = scan
		cond := searchPairCond(p, pp, time.Now().Add(time.Until(until)/time.Duration(len(pairScans)-k)), en)
		if cond == nil {
			continue
		}
		vals := make([]any, len(en.envs))
		for i, env := range en.envs {
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
func searchPairCond(p *problem, pp pairProblem, deadline time.Time, en *sketchRun) *node {
	names := pp.names(p.b)
	types := make([]valType, len(names))
	for i := range types {
		types[i] = tInt
	}
	sub := &problem{b: &binding{names: names, types: types}, round: -1, mined: p.mined, out: tBool, ok: []valType{tBool}}
	// The pairs given first, so that every true point is searched on.
	var falses [][]any
	for e, o := range p.outs {
		want, isList := o.([]int64)
		met := false
		pp.walk(p.envs[e], func(i, j int, feats []any) bool {
			if isList && len(want) == 2 && int64(i) == want[0] && int64(j) == want[1] {
				sub.envs, sub.outs = append(sub.envs, feats), append(sub.outs, true)
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
		if len(sub.envs) >= pairPointMax {
			break
		}
		sub.envs, sub.outs = append(sub.envs, f), append(sub.outs, false)
	}
	return en.holeSearch(sub, deadline, en.done, pairCondMax, en.memLimit/4, false, false)
}

func pairNode(p *problem, pp pairProblem, cond *node) *node {
	names := pp.names(p.b)
	op := &operator{Name: fmt.Sprintf("first_pair[%s: %s]", pp.scan.name, cond), Args: p.b.types, Ret: tListInt, Fam: famLoop, Cost: 1,
		Eval: func(_ *lambda, a []any) any { return pp.run(cond, a) },
		Py: func(e *emitter, _ *lambda, a []code) code {
			vars := make([]code, len(names))
			for i, n := range names {
				vars[i] = atom(n)
			}
			c := e.node(cond, vars).s
			xs := p.b.names[pp.list]
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
			return call(e.loopHelper("first_pair", p.b.names, sb.String()), a...)
		}}
	return overVars(p, op, 4+cond.Size)
}
