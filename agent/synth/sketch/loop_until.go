package sketch

import (
	"fmt"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The loop counting its steps until a condition fails:
//
//	x = init
//	steps = 0
//	while x < bound:          # or <=, >, >=
//	    y = rule(x, c, d)
//	    if y <= x:            # when the outputs show a value for "never"
//	        return -1
//	    x = y
//	    steps += 1
//	return steps
//
// The years until a saving reaches a target, the months until a loan is
// paid. init and bound are a parameter or a constant (the bound a term of
// the parameters), the rule one of loop_rules.go's. When some outputs
// are one negative value, which no count is, that value says the state
// never gets there: the loop returns it at the first step that does not
// move the state towards the bound (a payment below the interest). A
// loop that runs maxUntilSteps steps raises, in Go and in Python alike.

// maxUntilSteps bounds a loop's steps.
const maxUntilSteps = 10000

// untilCmp is the loop's condition: x < bound, x <= bound, x > bound or
// x >= bound.
type untilCmp uint8

const (
	untilLt untilCmp = iota
	untilLe
	untilGt
	untilGe
)

func (c untilCmp) holds(x, b float64) bool {
	switch c {
	case untilLt:
		return x < b
	case untilLe:
		return x <= b
	case untilGt:
		return x > b
	}
	return x >= b
}

// moves reports whether a step from x to y goes towards the bound.
func (c untilCmp) moves(x, y float64) bool {
	if c <= untilLe {
		return y > x
	}
	return y < x
}

// untilProg is one counting loop.
type untilProg struct {
	lp *loopParams
	// init is over the parameters, cond and body over
	// [x, i, params...] (i the steps so far).
	init, cond, body *dsl.Node
	// cmp says which way the state moves towards the bound.
	cmp             untilCmp
	never           int64
	hasNever, float bool
}

func (u *untilProg) run(env []any) any {
	ps, good := u.lp.values(env)
	if !good {
		return dsl.ErrV
	}
	x := initValue(u.init, ps, u.float)
	if dsl.IsErr(x) {
		return x
	}
	benv := append([]any{x, int64(0)}, ps...)
	for steps := int64(0); ; steps++ {
		benv[0], benv[1] = x, steps
		switch holds := dsl.EvalSafe(u.cond, benv); holds {
		case false:
			return steps
		case true:
		default:
			return dsl.ErrV
		}
		if steps == maxUntilSteps {
			return dsl.ErrV
		}
		y := dsl.EvalSafe(u.body, benv)
		if dsl.IsErr(y) {
			return y
		}
		if u.hasNever && !u.cmp.moves(num(x), num(y)) {
			return u.never
		}
		x = y
	}
}

// num is a number as a float64 (integers below 2**53 exactly, as Python
// compares them with floats).
func num(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

func (u *untilProg) python(e *dsl.Emitter) string {
	var sb strings.Builder
	sb.WriteString(u.lp.unpack())
	fmt.Fprintf(&sb, "    x = %s\n", e.Node(u.init, u.lp.codes()).S)
	sb.WriteString("    steps = 0\n")
	vars := append([]dsl.Code{dsl.Atom("x"), dsl.Atom("steps")}, u.lp.codes()...)
	fmt.Fprintf(&sb, "    while %s:\n", e.Node(u.cond, vars).S)
	fmt.Fprintf(&sb, "        if steps == %d:\n            raise ArithmeticError(\"the loop does not end\")\n", maxUntilSteps)
	body := e.Node(u.body, vars).S
	if u.hasNever {
		back := "<="
		if u.cmp > untilLe {
			back = ">="
		}
		fmt.Fprintf(&sb, "        y = %s\n        if y %s x:\n            return %d\n        x = y\n", body, back, u.never)
	} else {
		fmt.Fprintf(&sb, "        x = %s\n", body)
	}
	sb.WriteString("        steps += 1\n    return steps\n")
	return sb.String()
}

func (u *untilProg) node(p *dsl.Problem) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("steps_while[%s; %s: %s]", u.init, u.cond, u.body),
		Args: p.B.Types, Ret: dsl.Int, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return u.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("steps_while", u.lp.progNames, u.python(e)), a...)
		}}
	return overVars(p, op, 4+u.init.Size+u.cond.Size+u.body.Size)
}

// condProg is the program of x cmp bound over [x, i, params...]: x < b,
// x <= b, b < x, b <= x.
func (lk *loopKit) condProg(cmp untilCmp, bound *term, float bool) *dsl.Node {
	state := dsl.Int
	if float {
		state = dsl.Float
	}
	b := &ruleBuilder{float: float, vars: append([]dsl.Type{state, dsl.Int}, lk.lp.types...)}
	x, bn := &dsl.Node{Var: 0, Size: 1}, shiftVars(bound.n, bound.shift)
	if cmp > untilLe {
		x, bn = bn, x
	}
	op := opILt
	if cmp == untilLe || cmp == untilGe {
		op = opILe
	}
	if float {
		op, x, bn = opFLt, b.asFloat(x), b.asFloat(bn)
		if cmp == untilLe || cmp == untilGe {
			op = opFLe
		}
	}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{x, bn}, Var: -1, Size: 1 + x.Size + bn.Size}
}

// untilCase is a start, a condition and a bound that fit which examples
// run the loop at all.
type untilCase struct {
	init, bound *term
	cmp         untilCmp
	order       []int
	extra       int
}

// untilSketch searches the counting loops of p within the budget.
func untilSketch(en *Search, p *dsl.Problem, lk *loopKit, consider func(*dsl.Node, []any) bool) bool {
	// A value for "never": the one negative output, if any.
	var never int64
	hasNever := false
	for _, o := range p.Outs {
		v, isInt := o.(int64)
		if !isInt {
			return false
		}
		if v < 0 {
			if hasNever && v != never {
				return false
			}
			never, hasNever = v, true
		}
	}
	var cases []untilCase
	for _, init := range lk.inits {
		for s := 1; s <= 3 && s < len(lk.bySize); s++ {
			for _, bound := range lk.bySize[s] {
				if bound == init {
					continue
				}
				for cmp := untilLt; cmp <= untilGe; cmp++ {
					uc := untilCase{init: init, bound: bound, cmp: cmp, extra: s - 1}
					if lk.untilStarts(uc) {
						uc.order = lk.byRuns(func(e int) int64 {
							if v := p.Outs[e].(int64); v >= 0 {
								return v
							}
							return maxUntilSteps
						})
						cases = append(cases, uc)
					}
				}
			}
		}
	}
	if len(cases) == 0 {
		return false
	}
	float := false
	try := func(r *rule, c, d, t *term, extra int) bool {
		if ignoresState(r, c, d, t, func(e int) int { return e }, len(lk.ps)) {
			return false
		}
		for _, uc := range cases {
			if uc.extra != extra {
				continue
			}
			if !lk.spend(1) {
				return false
			}
			if !lk.untilFits(p, uc, r, c, d, t, hasNever, never) {
				continue
			}
			float = uc.init.typ == dsl.Float || uc.bound.typ == dsl.Float || c.typ == dsl.Float || d != nil && d.typ == dsl.Float || t != nil && t.typ == dsl.Float || r.ints == nil
			u := &untilProg{lp: lk.lp, init: uc.init.n, cmp: uc.cmp, never: never, hasNever: hasNever, float: float}
			u.cond, u.body = lk.condProg(uc.cmp, uc.bound, float), lk.ruleProg(r, c, d, t, float)
			if offer(en, u.node(p), consider) {
				return true
			}
		}
		return false
	}
	return lk.searchRules(try, 2)
}

// untilStarts reports whether the condition holds at the start exactly
// on the examples whose output is not 0.
func (lk *loopKit) untilStarts(uc untilCase) bool {
	for e := range lk.ps {
		if !uc.init.good(e) || !uc.bound.good(e) {
			return false
		}
		if uc.cmp.holds(uc.init.f[e], uc.bound.f[e]) != (lk.p.Outs[e].(int64) != 0) {
			return false
		}
	}
	return true
}

// untilFits runs the loop over the terms' values on every example, in
// floats (the state's values are those of the program in either type
// while they stay below 2**53).
func (lk *loopKit) untilFits(p *dsl.Problem, uc untilCase, r *rule, c, d, t *term, hasNever bool, never int64) bool {
	for _, e := range uc.order {
		want := p.Outs[e].(int64)
		x, b := uc.init.f[e], uc.bound.f[e]
		if !c.good(e) || d != nil && !d.good(e) || t != nil && !t.good(e) {
			return false
		}
		got := int64(-1)
		for steps := int64(0); ; steps++ {
			if !uc.cmp.holds(x, b) {
				got = steps
				break
			}
			if steps == maxUntilSteps || want >= 0 && steps >= want {
				return false
			}
			y, good := r.float(x, c.f[e], termF(d, e), termF(t, e))
			if !good {
				return false
			}
			if hasNever && !uc.cmp.moves(x, y) {
				got = never
				break
			}
			x = y
		}
		if got != want {
			return false
		}
	}
	return true
}
