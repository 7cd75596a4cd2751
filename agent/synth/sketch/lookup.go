package sketch

import (
	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The last resort of a search on two examples that nothing fits: the
// program that tells the two inputs apart by one of its variables and
// returns each one's output,
//
//	return 9232 if n == 4032 else 4
//
// (not for a text: two texts are named by a computed value, dsl/labels.go).
// It holds nothing beyond the two examples and is never taken for the
// answer (its literals are the observed values: the stage score's
// hard-coding penalty, and the next batch, which it fails). It passes
// the examples, so that the workflow grants the next batch and the
// search goes on with more evidence instead of spending the run on two
// examples: the sketches that need three or more (an orbit, a
// recurrence, a conditional) have them then.

// Operators a lookup compares a variable with.
var (
	opIEq = dsl.Catalog.Find("eq", dsl.Int, dsl.Int)
	opSEq = dsl.Catalog.Find("seq", dsl.Str, dsl.Str)
	opLEq = dsl.Catalog.Find("equal", dsl.ListInt, dsl.ListInt)
)

// Lookup offers the lookup of two examples with different outputs (not a
// proposal's rival: it splits nothing).
func Lookup(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if p.Nullable || len(p.Outs) != 2 || len(p.Envs) != 2 || en.Collect {
		return false
	}
	// A text is named by a computed value instead when nothing fits
	// (dsl/labels.go): a program, not a lookup.
	switch p.Out {
	case dsl.Int, dsl.Float, dsl.Bool, dsl.ListInt, dsl.ListStr:
	default:
		return false
	}
	cond := dsl.Catalog.Conds[p.Out]
	if cond == nil || dsl.EqualTo(p.Outs[0], p.Outs[1], 0) {
		return false
	}
	for k, t := range p.B.Types {
		var op *dsl.Operator
		switch t {
		case dsl.Int:
			op = opIEq
		case dsl.Str:
			op = opSEq
		case dsl.ListInt:
			op = opLEq
		}
		a, b := p.Envs[0][k], p.Envs[1][k]
		if op == nil || dsl.EqualTo(a, b, 0) {
			continue
		}
		test := &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: k, Size: 1}, {Var: -1, Const: a, Size: 1}}, Var: -1, Size: 3}
		n := &dsl.Node{Op: cond, Kids: []*dsl.Node{test, {Var: -1, Const: p.Outs[0], Size: 1}, {Var: -1, Const: p.Outs[1], Size: 1}}, Var: -1, Size: 6}
		return offer(en, n, consider)
	}
	return false
}
