package synth

import (
	"sync"
	"time"
)

// familySketches runs the strategies for programs the levels do not reach
// (after size 4, after the sweeps): the recurrence sketch over
// an integer (strategy_template_dp.go), the digit-loop sketch
// (strategy_template_digits.go), the stack sketch
// (strategy_template_stack.go), the scan of a string's brackets
// (strategy_brackets.go), the state-machine search
// (strategy_state.go), error diffusion (strategy_diffusion.go), the
// position-wise decomposition of list
// transducers (strategy_window.go), the recurrences over a list's
// elements (strategy_template_listdp.go), the decomposition of a list of
// indices (strategy_indices.go), the first pair of indices for which a
// condition holds (strategy_pairs.go), then the word-wise decomposition
// of strings (strategy_words.go) and the decomposition into fixed-width
// units (strategy_chunks.go). It reports whether consider accepted a
// program.
func familySketches(en *enumerator, p *problem, consider func(*node, []any) bool) bool {
	return dpSketch(en, p, consider) || orbitSketch(en, p, consider) || digitSketch(en, p, consider) || digitValueSketch(en, p, 0.1, consider) || stackSketch(en, p, consider) || interpSketch(en, p, consider) || bracketSketch(en, p, consider) ||
		stateMachine(en, p, 0.15, consider) || diffusionSketch(en, p, consider) || positionwise(en, p, 0.6, consider) || listDPSketch(en, p, consider) || alignSketch(en, p, consider) ||
		indexDecomposition(en, p, consider) || firstIndexDecomposition(en, p, consider) || firstPair(en, p, consider) || wordwise(en, p, consider) || chunkwise(en, p, consider)
}

// lastResort runs the sketches that fit too easily to stand beside the
// programs the levels enumerate, when a search ends with nothing
// consistent: the character table (strategy_template_chartable.go). A
// program that fits lets the run go on with more examples, where a partial
// one would stall it. It reports whether consider accepted a program.
func lastResort(en *enumerator, p *problem, consider func(*node, []any) bool) bool {
	return charTableSketch(en, p, consider)
}

var scalarOpsOnce = sync.OnceValue(func() []*operator {
	var out []*operator
	for _, op := range catalog.top {
		if op.Ret <= tStr {
			out = append(out, op)
		}
	}
	return append(out, catalog.holes...)
})

// scalarOps are the operators of a sketch's holes: those returning a
// number, a truth value or a string (a hole is one value; the lists it
// reads are its variables, reduced by sum, max, count...).
func scalarOps() []*operator { return scalarOpsOnce() }

// holeSearch fills the hole of a sketch: it enumerates programs over the
// sub-problem's variables level by level up to maxSize and returns the
// first consistent with every data point, or nil. Unlike a whole search it
// runs no strategies, only a short staged sweep after size 4 when sweep is
// set (a count or sum over a window with a lambda), and, when conds is
// set, after each size from 3 the conditional "t if c else e" of two small programs each right
// on part of the data points (strategy_conditional.go): a state that
// changes only on some inputs, a value that depends on the index's parity.
func holeSearch(p *problem, deadline time.Time, done <-chan struct{}, maxSize int, mem int64, sweep, conds bool) *node {
	return holeSearchBy(p, deadline, 0, done, maxSize, mem, sweep, conds, nil)
}

// holeSearchBy is holeSearch where accept, when not nil, says whether a
// program's values on the sub-problem's environments fill the hole (the sub-problem's
// outputs are then those the conditionals split, if any): a hole whose
// values are joined before they are compared. maxEval, when set, bounds
// the search by programs evaluated too, so that a loaded machine finds
// what an idle one does before the deadline.
func holeSearchBy(p *problem, deadline time.Time, maxEval int64, done <-chan struct{}, maxSize int, mem int64, sweep, conds bool,
	accept func(e *entry) bool) *node {
	var found *node
	lams, ok := lambdasFor(p.mined, done)
	if !ok {
		return nil
	}
	en := newEnumerator(enumConfig{envs: p.envs, vars: p.b.types, consts: topConsts(p), ops: scalarOps(),
		lams: lams, deadline: deadline, maxEval: maxEval, done: done, memLimit: mem})
	masks := map[string]*entry{}
	var order []string
	en.onNew = func(t valType, e *entry) bool {
		if !p.okType(t) {
			return false
		}
		if accept == nil && p.allMatchCol(e.col) || accept != nil && accept(e) {
			found = e.n
			return true
		}
		// The branches of a conditional are small programs right on part
		// of the points, the smallest of each set of points kept.
		if conds && len(p.outs) >= 3 && e.n.Size <= maxBranchSize && len(order) < maxHoleMasks {
			if bits, n := p.matchesCol(e.col); n > 0 {
				if k := maskKey(bits); masks[k] == nil {
					masks[k] = e
					order = append(order, k)
				}
			}
		}
		return false
	}
	for _, t := range p.ok {
		for _, es := range en.bank[t] {
			for _, e := range es {
				if en.onNew(t, e) {
					return found
				}
			}
		}
	}
	// A conditional is kept until the sizes below its own are
	// enumerated: a plain program found there is preferred.
	var cond *node
	en.grow(maxSize, func(size int) bool {
		if size == 4 && sweep {
			sweepStaged(en, 0.3, p.ok)
		}
		if conds && found == nil && size >= 3 && len(order) > 1 {
			if n, _ := splitConditional(p, en, masks, order, 2*size+1); n != nil && (cond == nil || n.Size < cond.Size) {
				cond = n
			}
		}
		return found != nil || (cond != nil && size+1 >= cond.Size)
	})
	if found == nil && !en.cancelled {
		found = cond
	}
	return found
}

// Bounds of a hole's conditionals: the size of a branch, and how many
// sets of points the branches are drawn from.
const (
	maxBranchSize = 5
	maxHoleMasks  = 512
)

// overVars is the program applying a sketch's operator to the problem's
// variables in order, of the size given.
func overVars(p *problem, op *operator, size int) *node {
	n := &node{Op: op, Var: -1, Size: size}
	for i := range p.b.types {
		n.Kids = append(n.Kids, &node{Var: i, Size: 1})
	}
	return n
}

// offer hands a sketch's program to consider with its values on every
// environment (examples and proposal candidates).
func offer(en *enumerator, n *node, consider func(*node, []any) bool) bool {
	vals := make([]any, len(en.envs))
	for i, env := range en.envs {
		vals[i] = evalSafe(n, env)
	}
	return consider(n, vals)
}

// fillSketch checks the fillings of a sketch on the examples in order and
// hands the first that fits every example to consider, with its values on
// every environment; it reports whether consider accepted one.
func fillSketch[F any](en *enumerator, p *problem, fills []F, run func(f F, env []any) any, prog func(f F) *node,
	consider func(*node, []any) bool) bool {
	for _, f := range fills {
		fits := true
		for i := range p.outs {
			if !p.matchesAt(i, run(f, p.envs[i])) {
				fits = false
				break
			}
		}
		if !fits {
			continue
		}
		vals := make([]any, len(en.envs))
		for i, env := range en.envs {
			vals[i] = run(f, env)
		}
		if consider(prog(f), vals) {
			return true
		}
	}
	return false
}
