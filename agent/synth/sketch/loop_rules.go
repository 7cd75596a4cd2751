package sketch

import (
	"math"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The rules a loop updates its state x by: x and one or two terms c and d
// (programs of the parameters and the index, loop_terms.go) under a fixed
// shape — a term added or taken away (a sum of a series, a payment), a
// factor (interest, decay, a product of a series), an affine step (a loan
// with interest and a payment), relaxation towards a level (a cooling
// drink: x + c * (d - x)), logistic growth towards a capacity. Each rule
// is a program of the DSL's own operators, so that its Python is theirs;
// step computes the same in float64 (or int64) over the terms' values,
// operation by operation as the operators do, for the loops' fast check.

// rule is one shape of update.
type rule struct {
	name  string
	holes int
	// cost is the rule's own size in the order fillings are tried: a
	// rule with more terms or a rarer shape costs more.
	cost int
	// float is the rule over floats; ints, when set, over integers.
	float func(x, c, d, _ float64) (float64, bool)
	ints  func(x, c, d, _ int64) (int64, bool)
	// prog builds the rule over a state program and terms of the types
	// given (the state's type says which operators: float or integer).
	prog func(b *ruleBuilder, x, c, d, _ *dsl.Node) *dsl.Node
}

// Operators the rules are built of.
var (
	opFAdd    = dsl.Catalog.Find("fadd", dsl.Float, dsl.Float)
	opFSub    = dsl.Catalog.Find("fsub", dsl.Float, dsl.Float)
	opFMul    = dsl.Catalog.Find("fmul", dsl.Float, dsl.Float)
	opFDiv    = dsl.Catalog.Find("fdiv", dsl.Float, dsl.Float)
	opFloat   = dsl.Catalog.Find("float", dsl.Int)
	opIAdd    = dsl.Catalog.Find("add", dsl.Int, dsl.Int)
	opISub    = dsl.Catalog.Find("sub", dsl.Int, dsl.Int)
	opIMul    = dsl.Catalog.Find("mul", dsl.Int, dsl.Int)
	opILt     = dsl.Catalog.Find("lt", dsl.Int, dsl.Int)
	opILe     = dsl.Catalog.Find("le", dsl.Int, dsl.Int)
	opFLt     = dsl.Catalog.Find("flt", dsl.Float, dsl.Float)
	opFLe     = dsl.Catalog.Find("fle", dsl.Float, dsl.Float)
	opFMax    = dsl.Catalog.Find("fmax", dsl.Float, dsl.Float)
	oneFloat  = &dsl.Node{Var: -1, Const: 1.0, Size: 1}
	zeroFloat = &dsl.Node{Var: -1, Const: 0.0, Size: 1}
)

// ruleBuilder applies arithmetic to programs of either number type: over
// floats when the state is a float (an integer operand converted by
// float(), which Python's mixed arithmetic does implicitly), over
// integers otherwise. vars are the types of the programs' variables.
type ruleBuilder struct {
	float bool
	vars  []dsl.Type
}

func (b *ruleBuilder) bin(fop, iop *dsl.Operator, x, y *dsl.Node) *dsl.Node {
	op := iop
	if b.float {
		op, x, y = fop, b.asFloat(x), b.asFloat(y)
	}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{x, y}, Var: -1, Size: 1 + x.Size + y.Size}
}

func (b *ruleBuilder) add(x, y *dsl.Node) *dsl.Node { return b.bin(opFAdd, opIAdd, x, y) }
func (b *ruleBuilder) sub(x, y *dsl.Node) *dsl.Node { return b.bin(opFSub, opISub, x, y) }
func (b *ruleBuilder) mul(x, y *dsl.Node) *dsl.Node { return b.bin(opFMul, opIMul, x, y) }
func (b *ruleBuilder) div(x, y *dsl.Node) *dsl.Node { return b.bin(opFDiv, opFDiv, x, y) }

// asFloat converts an integer program to a float one.
func (b *ruleBuilder) asFloat(n *dsl.Node) *dsl.Node {
	if b.typeOf(n) != dsl.Int {
		return n
	}
	if n.Op == nil && n.Var < 0 {
		return &dsl.Node{Var: -1, Const: float64(n.Const.(int64)), Size: 1}
	}
	return &dsl.Node{Op: opFloat, Kids: []*dsl.Node{n}, Var: -1, Size: 1 + n.Size}
}

// typeOf is a program's type.
func (b *ruleBuilder) typeOf(n *dsl.Node) dsl.Type {
	switch {
	case n.Op != nil:
		return n.Op.Ret
	case n.Var >= 0:
		return b.vars[n.Var]
	}
	t, _ := dsl.TypeOf(n.Const)
	return t
}

// f64 is a float operation's result as the DSL's operators give it: a
// failure when it is not finite. Every product is converted explicitly
// (float64(x * c)) before it is added to: Go may otherwise fuse a*b+c
// into one rounding, where Python rounds each operation.
func f64(x float64) (float64, bool) { return x, !math.IsNaN(x) && !math.IsInf(x, 0) }

// rules are the shapes tried, fewest terms first.
var rules = []*rule{
	{name: "x + c", holes: 1, cost: 1,
		float: func(x, c, _, _ float64) (float64, bool) { return f64(x + c) },
		ints:  func(x, c, _, _ int64) (int64, bool) { return dsl.AddI(x, c) },
		prog:  func(b *ruleBuilder, x, c, _, _ *dsl.Node) *dsl.Node { return b.add(x, c) }},
	{name: "x * c", holes: 1, cost: 1,
		float: func(x, c, _, _ float64) (float64, bool) { return f64(float64(x * c)) },
		ints:  func(x, c, _, _ int64) (int64, bool) { return dsl.MulI(x, c) },
		prog:  func(b *ruleBuilder, x, c, _, _ *dsl.Node) *dsl.Node { return b.mul(x, c) }},
	{name: "x - c", holes: 1, cost: 1,
		float: func(x, c, _, _ float64) (float64, bool) { return f64(x - c) },
		ints:  func(x, c, _, _ int64) (int64, bool) { return dsl.SubI(x, c) },
		prog:  func(b *ruleBuilder, x, c, _, _ *dsl.Node) *dsl.Node { return b.sub(x, c) }},
	{name: "x / c", holes: 1, cost: 2,
		float: func(x, c, _, _ float64) (float64, bool) {
			if c == 0 {
				return 0, false
			}
			return f64(float64(x / c))
		},
		prog: func(b *ruleBuilder, x, c, _, _ *dsl.Node) *dsl.Node { return b.div(x, c) }},
	{name: "c - x", holes: 1, cost: 2,
		float: func(x, c, _, _ float64) (float64, bool) { return f64(c - x) },
		ints:  func(x, c, _, _ int64) (int64, bool) { return dsl.SubI(c, x) },
		prog:  func(b *ruleBuilder, x, c, _, _ *dsl.Node) *dsl.Node { return b.sub(c, x) }},
	{name: "x + x * c", holes: 1, cost: 2,
		float: func(x, c, _, _ float64) (float64, bool) {
			t, good := f64(float64(x * c))
			return and(good, x+t)
		},
		ints: func(x, c, _, _ int64) (int64, bool) {
			t, good := dsl.MulI(x, c)
			return andI(good, x, t, dsl.AddI)
		},
		prog: func(b *ruleBuilder, x, c, _, _ *dsl.Node) *dsl.Node { return b.add(x, b.mul(x, c)) }},
	{name: "x + x * c / d", holes: 2, cost: 3,
		float: func(x, c, d, _ float64) (float64, bool) {
			t, good := f64(float64(x * c))
			if !good || d == 0 {
				return 0, false
			}
			u, good := f64(float64(t / d))
			return and(good, x+u)
		},
		prog: func(b *ruleBuilder, x, c, d, _ *dsl.Node) *dsl.Node { return b.add(x, b.div(b.mul(x, c), d)) }},
	{name: "x - x * c / d", holes: 2, cost: 3,
		float: func(x, c, d, _ float64) (float64, bool) {
			t, good := f64(float64(x * c))
			if !good || d == 0 {
				return 0, false
			}
			u, good := f64(float64(t / d))
			return and(good, x-u)
		},
		prog: func(b *ruleBuilder, x, c, d, _ *dsl.Node) *dsl.Node { return b.sub(x, b.div(b.mul(x, c), d)) }},
	{name: "x * c + d", holes: 2, cost: 3,
		float: func(x, c, d, _ float64) (float64, bool) {
			t, good := f64(float64(x * c))
			return and(good, t+d)
		},
		ints: func(x, c, d, _ int64) (int64, bool) {
			t, good := dsl.MulI(x, c)
			return andI(good, t, d, dsl.AddI)
		},
		prog: func(b *ruleBuilder, x, c, d, _ *dsl.Node) *dsl.Node { return b.add(b.mul(x, c), d) }},
	{name: "x * c - d", holes: 2, cost: 3,
		float: func(x, c, d, _ float64) (float64, bool) {
			t, good := f64(float64(x * c))
			return and(good, t-d)
		},
		ints: func(x, c, d, _ int64) (int64, bool) {
			t, good := dsl.MulI(x, c)
			return andI(good, t, d, dsl.SubI)
		},
		prog: func(b *ruleBuilder, x, c, d, _ *dsl.Node) *dsl.Node { return b.sub(b.mul(x, c), d) }},
	{name: "x + c * (d - x)", holes: 2, cost: 3,
		float: func(x, c, d, _ float64) (float64, bool) {
			u, good := f64(d - x)
			v, good2 := f64(float64(c * u))
			return and(good && good2, x+v)
		},
		prog: func(b *ruleBuilder, x, c, d, _ *dsl.Node) *dsl.Node { return b.add(x, b.mul(c, b.sub(d, x))) }},
	{name: "(x + c) * d", holes: 2, cost: 3,
		float: func(x, c, d, _ float64) (float64, bool) {
			t, good := f64(x + c)
			return and(good, float64(t*d))
		},
		ints: func(x, c, d, _ int64) (int64, bool) {
			t, good := dsl.AddI(x, c)
			return andI(good, t, d, dsl.MulI)
		},
		prog: func(b *ruleBuilder, x, c, d, _ *dsl.Node) *dsl.Node { return b.mul(b.add(x, c), d) }},
	{name: "(x - c) * d", holes: 2, cost: 3,
		float: func(x, c, d, _ float64) (float64, bool) {
			t, good := f64(x - c)
			return and(good, float64(t*d))
		},
		ints: func(x, c, d, _ int64) (int64, bool) {
			t, good := dsl.SubI(x, c)
			return andI(good, t, d, dsl.MulI)
		},
		prog: func(b *ruleBuilder, x, c, d, _ *dsl.Node) *dsl.Node { return b.mul(b.sub(x, c), d) }},
	{name: "x * c / d", holes: 2, cost: 3,
		float: func(x, c, d, _ float64) (float64, bool) {
			t, good := f64(float64(x * c))
			if !good || d == 0 {
				return 0, false
			}
			return f64(float64(t / d))
		},
		prog: func(b *ruleBuilder, x, c, d, _ *dsl.Node) *dsl.Node { return b.div(b.mul(x, c), d) }},
	{name: "x + c * x * (1 - x / d)", holes: 2, cost: 4,
		float: func(x, c, d, _ float64) (float64, bool) {
			if d == 0 {
				return 0, false
			}
			q, g1 := f64(float64(x / d))
			w, g2 := f64(1 - q)
			m, g3 := f64(float64(c * x))
			m2, g4 := f64(float64(m * w))
			return and(g1 && g2 && g3 && g4, x+m2)
		},
		prog: func(b *ruleBuilder, x, c, d, _ *dsl.Node) *dsl.Node {
			return b.add(x, b.mul(b.mul(c, x), b.sub(oneFloat, b.div(x, d))))
		}},
}

func init() {
	var derived []*rule
	for _, r := range rules {
		if r.holes == 2 {
			derived = append(derived, thenRule(r, "+", 1), thenRule(r, "-", -1))
		}
	}
	for _, r := range rules {
		if clamped[r.name] {
			derived = append(derived, clampRule(r))
		}
	}
	rules = append(rules, derived...)
}

// thenRule is r followed by a third term added or taken away: a loan's
// interest added, then its payment taken (x + x * c / d - e). The third
// term is a parameter or a constant (searchRules).
func thenRule(r *rule, op string, sign float64) *rule {
	t := &rule{name: r.name + " " + op + " e", holes: 3, cost: r.cost + 1,
		float: func(x, c, d, e float64) (float64, bool) {
			y, good := r.float(x, c, d, 0)
			return and(good, y+sign*e)
		},
		prog: func(b *ruleBuilder, x, c, d, e *dsl.Node) *dsl.Node {
			if sign > 0 {
				return b.add(r.prog(b, x, c, d, nil), e)
			}
			return b.sub(r.prog(b, x, c, d, nil), e)
		}}
	if r.ints != nil {
		t.ints = func(x, c, d, e int64) (int64, bool) {
			y, good := r.ints(x, c, d, 0)
			if sign > 0 {
				return andI(good, y, e, dsl.AddI)
			}
			return andI(good, y, e, dsl.SubI)
		}
	}
	return t
}

// clamped are the rules that can take a quantity below 0, which a
// simulation often keeps at 0 (a population dying out, a stock used up).
var clamped = map[string]bool{"x - c": true, "x * c - d": true, "x - x * c / d": true, "x + c * x * (1 - x / d)": true}

// clampRule is r kept at 0 or above: max(r(x, c, d), 0.0), which is
// Python's "if x < 0: x = 0.0" (max keeps its first argument unless the
// second is larger). Over floats only.
func clampRule(r *rule) *rule {
	return &rule{name: "max(" + r.name + ", 0)", holes: r.holes, cost: r.cost + 1,
		float: func(x, c, d, e float64) (float64, bool) {
			y, good := r.float(x, c, d, e)
			return and(good, math.Max(y, 0))
		},
		prog: func(b *ruleBuilder, x, c, d, e *dsl.Node) *dsl.Node {
			y := b.asFloat(r.prog(b, x, c, d, e))
			return &dsl.Node{Op: opFMax, Kids: []*dsl.Node{y, zeroFloat}, Var: -1, Size: 2 + y.Size}
		}}
}

func and(good bool, v float64) (float64, bool) {
	if !good {
		return 0, false
	}
	return f64(v)
}

func andI(good bool, a, b int64, f func(a, b int64) (int64, bool)) (int64, bool) {
	if !good {
		return 0, false
	}
	return f(a, b)
}
