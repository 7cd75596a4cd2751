package sketch

import (
	"fmt"
	"slices"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The guarded value: when some outputs are null and the others numbers,
// a value computed from the inputs where a condition holds, and None
// elsewhere — the majority element or None, the only duplicate or None.
// The value is a hole searched on the examples whose output is not null;
// the condition a hole over the inputs, the value v and, when the value
// is an integer and an input is one list of integers, how often v occurs
// in it (k), true at those examples and false at the null ones (an
// example where the value itself fails is null whatever the condition).

// Bounds of the guard's holes and its share of the time left.
const (
	guardValueMax = 5
	guardCondMax  = 6
	guardShare    = 0.3
	guardMinEach  = 2
	guardValues   = 4
)

// guard is a filling: the value, the condition, and the list whose
// count of the value the condition reads (-1: none).
type guard struct {
	value, cond *dsl.Node
	list        int
}

// condEnv is the condition's environment: the inputs, the value and its
// count in the list.
func (g guard) condEnv(env []any, v any) []any {
	out := append(slices.Clone(env), v)
	if g.list >= 0 {
		var k int64
		xs, _ := env[g.list].([]int64)
		n, _ := v.(int64)
		for _, x := range xs {
			if x == n {
				k++
			}
		}
		out = append(out, k)
	}
	return out
}

func (g guard) run(env []any) any {
	v := dsl.EvalSafe(g.value, env)
	if dsl.IsErr(v) {
		return dsl.ErrV
	}
	if b, isBool := dsl.EvalSafe(g.cond, g.condEnv(env, v)).(bool); !isBool || !b {
		return dsl.ErrV
	}
	return v
}

// Guard searches a guarded value; it reports whether consider accepted
// it.
func Guard(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if !p.Nullable || en.Stopped || (p.Out != dsl.Int && p.Out != dsl.Float) ||
		slices.Contains(p.B.Names, "v") || slices.Contains(p.B.Names, "k") {
		return false
	}
	vals := &dsl.Problem{B: p.B, Round: p.Round, Mined: p.Mined, Out: p.Out, Ok: p.Ok}
	nulls := 0
	for i, o := range p.Outs {
		if dsl.IsErr(o) {
			nulls++
			continue
		}
		vals.Envs, vals.Outs = append(vals.Envs, p.Envs[i]), append(vals.Outs, o)
	}
	if nulls < guardMinEach || len(vals.Outs) < guardMinEach {
		return false
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * guardShare))
	// The first few values that fit, smallest first: a value right on
	// the examples that are not null may still be the wrong one on the
	// null ones (the largest even element for the largest element).
	var values []*dsl.Node
	accept := func(e *dsl.Entry) bool {
		if e.Type() == p.Out && vals.AllMatch(e.Values()) {
			values = append(values, e.N.Clone())
		}
		return len(values) >= guardValues
	}
	en.holeSearchBy(vals, time.Now().Add(time.Until(until)/3), 0, en.Done, guardValueMax, en.MemLimit/4, false, false, accept)
	for _, v := range values {
		if time.Now().After(until) || en.interrupted() {
			return false
		}
		g := guard{value: v, list: -1}
		if g.cond, g.list = guardCond(en, p, g.value, until); g.cond == nil {
			continue
		}
		if fillSketch(en, p, []guard{g}, guard.run, func(g guard) *dsl.Node { return g.node(p) }, consider) {
			return true
		}
	}
	return false
}

// guardCond searches the condition of a guarded value over the inputs,
// the value and its count in the list of integers (when the value is an
// integer and one input is such a list, whose index it returns; else -1),
// true at the examples that are not null and false at the null ones where
// the value does not fail.
func guardCond(en *Search, p *dsl.Problem, value *dsl.Node, until time.Time) (*dsl.Node, int) {
	g := guard{value: value, list: -1}
	b := &dsl.Binding{Names: append(slices.Clone(p.B.Names), "v"), Types: append(slices.Clone(p.B.Types), p.Out)}
	if p.Out == dsl.Int {
		var lists []int
		for j, t := range p.B.Types {
			if t == dsl.ListInt {
				lists = append(lists, j)
			}
		}
		if len(lists) == 1 {
			g.list = lists[0]
			b.Names, b.Types = append(b.Names, "k"), append(b.Types, dsl.Int)
		}
	}
	cond := &dsl.Problem{B: b, Round: -1, Mined: p.Mined, Out: dsl.Bool, Ok: []dsl.Type{dsl.Bool}}
	for i, env := range p.Envs[:len(p.Outs)] {
		v := dsl.EvalSafe(g.value, env)
		if dsl.IsErr(v) {
			if !dsl.IsErr(p.Outs[i]) {
				return nil, -1
			}
			continue
		}
		cond.Envs, cond.Outs = append(cond.Envs, g.condEnv(env, v)), append(cond.Outs, !dsl.IsErr(p.Outs[i]))
	}
	deadline := time.Now().Add(time.Until(until) / 2)
	return en.holeSearch(cond, deadline, en.Done, guardCondMax, en.MemLimit/4, false, false), g.list
}

func (g guard) node(p *dsl.Problem) *dsl.Node {
	condNames := append(slices.Clone(p.B.Names), "v")
	if g.list >= 0 {
		condNames = append(condNames, "k")
	}
	op := &dsl.Operator{Name: fmt.Sprintf("guard[%s if %s]", g.value, g.cond), Args: p.B.Types, Ret: p.Out, Fam: dsl.FamScalar, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return g.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			vars := make([]dsl.Code, len(condNames))
			for i, n := range condNames {
				vars[i] = dsl.Atom(n)
			}
			body := fmt.Sprintf("    v = %s\n", e.Node(g.value, vars[:len(p.B.Names)]).S)
			if g.list >= 0 {
				body += fmt.Sprintf("    k = %s.count(v)\n", p.B.Names[g.list])
			}
			body += fmt.Sprintf("    return v if %s else None\n", e.Node(g.cond, vars).At(dsl.POr))
			return dsl.Call(e.LoopHelper("guarded", p.B.Names, body), a...)
		}}
	return overVars(p, op, 2+g.value.Size+g.cond.Size)
}
