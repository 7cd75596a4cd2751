package sketch

import (
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The terms of a loop sketch: programs over the loop's parameters (and
// its index) that do not read its state — the factor of a compound
// interest, the level a cooling drink tends to, the term 1 / i of a
// series, a loop's bound. The search's enumerator finds them as a hole
// that accepts nothing, over environments that are exactly the points a
// loop evaluates them at (each example's parameters, and each index it
// runs through), so that two terms it keeps apart make different loops,
// and each term's values there are at hand: a rule built from terms runs
// over them without evaluating a program.

// term is one program of a pool with its values on the pool's
// environments.
type term struct {
	n   *dsl.Node
	typ dsl.Type // Int, Float or Bool
	// shift places the term's variables among a rule's [x, i, params...]:
	// 2 for a term over the parameters, 1 for one over [i, params...].
	shift int
	f     []float64 // the values of a number, integers as floats
	i     []int64   // the values of an integer
	b     []bool    // the values of a truth value
	bad   []bool    // where it raised
}

func (t *term) good(k int) bool { return t.bad == nil || !t.bad[k] }

// termHole bounds a pool's search.
type termHole struct {
	names []string
	types []dsl.Type
	envs  [][]any
	out   dsl.Type // Float (numbers of both types) or Bool
	// consts are constants beyond the search's usual ones.
	consts []any
	// shift is the terms' (see term).
	shift int
	// maxSize and maxTerms bound the programs kept; keep, when set,
	// chooses them.
	maxSize, maxTerms int
	keep              func(n *dsl.Node) bool
	deadline          time.Time
	maxEval           int64
}

// collectTerms returns the programs of a pool, smallest first.
func collectTerms(en *Search, p *dsl.Problem, h termHole) []*term {
	if len(h.envs) == 0 || en.Stopped {
		return nil
	}
	sub := &dsl.Problem{B: &dsl.Binding{Names: h.names, Types: h.types}, Envs: h.envs, Round: -1, Mined: p.Mined,
		Out: h.out, Ok: []dsl.Type{dsl.Int, dsl.Float}, Consts: h.consts}
	if h.out == dsl.Bool {
		sub.Ok = []dsl.Type{dsl.Bool}
	}
	sub.Outs = make([]any, len(h.envs))
	for k := range sub.Outs {
		sub.Outs[k] = dsl.ErrV
	}
	var out []*term
	accept := func(e *dsl.Entry) bool {
		if e.N.Size > h.maxSize || h.keep != nil && !h.keep(e.N) || !usefulTerm(e.N) {
			return false
		}
		t := &term{n: e.N, typ: e.Type(), shift: h.shift}
		if e.Col.Bad != nil {
			t.bad = append([]bool(nil), e.Col.Bad...)
		}
		switch c := e.Col.Data.(type) {
		case []int64:
			t.i = append([]int64(nil), c...)
			t.f = make([]float64, len(c))
			for k, v := range c {
				t.f[k] = float64(v)
			}
		case []float64:
			t.f = append([]float64(nil), c...)
		case []bool:
			t.b = append([]bool(nil), c...)
		default:
			return false
		}
		out = append(out, t)
		return len(out) >= h.maxTerms
	}
	en.Holes.Fill(sub, Hole{Deadline: h.deadline, MaxEval: h.maxEval, Done: en.Done, MaxSize: h.maxSize, Mem: en.MemLimit / 4, Accept: accept})
	en.interrupted()
	return out
}

// usefulTerm reports whether a term is worth a rule's hole: not a
// program of constants alone (another constant, which the small ones
// stand for) nor a conversion float(t), which the rules make themselves.
func usefulTerm(n *dsl.Node) bool {
	if n.Op == nil {
		return true
	}
	return n.Op != opFloat && readsAny(n)
}

func readsAny(n *dsl.Node) bool {
	if n.Op == nil {
		return n.Var >= 0
	}
	for _, k := range n.Kids {
		if readsAny(k) {
			return true
		}
	}
	return false
}

// readsVar reports whether a program reads variable v.
func readsVar(n *dsl.Node, v int) bool {
	if n.Op == nil {
		return n.Var == v
	}
	for _, k := range n.Kids {
		if readsVar(k, v) {
			return true
		}
	}
	return false
}

// shiftVars returns a copy of a program with its variables renumbered by
// d (a term over [i, params...] placed in a rule over [x, i, params...]).
func shiftVars(n *dsl.Node, d int) *dsl.Node {
	c := *n
	if n.Op == nil {
		if n.Var >= 0 {
			c.Var += d
		}
		return &c
	}
	c.Kids = make([]*dsl.Node, len(n.Kids))
	for k, kid := range n.Kids {
		c.Kids[k] = shiftVars(kid, d)
	}
	return &c
}
