package synth

import (
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
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
func familySketches(en *sketchRun, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	return dpSketch(en, p, consider) || orbitSketch(en, p, consider) || digitSketch(en, p, consider) || digitValueSketch(en, p, 0.1, consider) || stackSketch(en, p, consider) || interpSketch(en, p, consider) || bracketSketch(en, p, consider) ||
		stateMachine(en, p, 0.15, consider) || diffusionSketch(en, p, consider) || positionwise(en, p, 0.6, consider) || listDPSketch(en, p, consider) || alignSketch(en, p, consider) ||
		indexDecomposition(en, p, consider) || firstIndexDecomposition(en, p, consider) || firstPair(en, p, consider) || wordwise(en, p, consider) || chunkwise(en, p, consider)
}

// lastResort runs the sketches that fit too easily to stand beside the
// programs the levels enumerate, when a search ends with nothing
// consistent: the character table (strategy_template_chartable.go). A
// program that fits lets the run go on with more examples, where a partial
// one would stall it. It reports whether consider accepted a program.
func lastResort(en *sketchRun, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	return charTableSketch(en, p, consider)
}

// sketchRun is what a sketch reads of the search that runs it: the
// environments a program's values are computed on (the examples', then
// the proposal candidates'), its bounds, the lambda banks, and the
// enumerator that fills a sketch's holes. stopped and cancelled start as
// the search's and carry back what interrupted learned.
type sketchRun struct {
	envs     [][]any
	deadline time.Time
	done     <-chan struct{}
	memLimit int64
	lams     *dsl.Lambdas
	holes    holes
	// stopped says the search is stopped (its clock, its budget or a
	// cancellation), cancelled that done was closed.
	stopped, cancelled bool
}

// interrupted reports whether the search was cancelled, and stops it then.
func (r *sketchRun) interrupted() bool {
	if r.done == nil {
		return false
	}
	select {
	case <-r.done:
		r.stopped, r.cancelled = true, true
		return true
	default:
		return false
	}
}

// holes fills the holes of a sketch; the search that runs the sketches
// implements it with its enumerator.
type holes interface {
	// fill enumerates programs over the sub-problem's variables level by
	// level up to h.maxSize and returns the first consistent with every
	// data point, or nil. Unlike a whole search it runs no strategies,
	// only a short staged sweep after size 4 when h.sweep is set (a count
	// or sum over a window with a lambda), and, when h.conds is set,
	// after each size from 3 the conditional "t if c else e" of two small
	// programs each right on part of the data points: a state that
	// changes only on some inputs, a value that depends on the index's
	// parity.
	fill(sub *dsl.Problem, h hole) *dsl.Node
}

// hole bounds the search for a sketch's hole. accept, when not nil, says
// whether a program's values on the sub-problem's environments fill the
// hole (the sub-problem's outputs are then those the conditionals split,
// if any): a hole whose values are joined before they are compared.
// maxEval, when set, bounds the search by programs evaluated too, so that
// a loaded machine finds what an idle one does before the deadline.
type hole struct {
	deadline     time.Time
	maxEval      int64
	done         <-chan struct{}
	maxSize      int
	mem          int64
	sweep, conds bool
	accept       func(e *dsl.Entry) bool
}

// holeSearch fills a hole of at most maxSize by the run's enumerator.
func (r *sketchRun) holeSearch(sub *dsl.Problem, deadline time.Time, done <-chan struct{}, maxSize int, mem int64, sweep, conds bool) *dsl.Node {
	return r.holes.fill(sub, hole{deadline: deadline, done: done, maxSize: maxSize, mem: mem, sweep: sweep, conds: conds})
}

// holeSearchBy is holeSearch with the other bounds of a hole.
func (r *sketchRun) holeSearchBy(sub *dsl.Problem, deadline time.Time, maxEval int64, done <-chan struct{}, maxSize int, mem int64, sweep, conds bool,
	accept func(e *dsl.Entry) bool) *dsl.Node {
	return r.holes.fill(sub, hole{deadline: deadline, maxEval: maxEval, done: done, maxSize: maxSize, mem: mem, sweep: sweep, conds: conds, accept: accept})
}

// overVars is the program applying a sketch's operator to the problem's
// variables in order, of the size given.
func overVars(p *dsl.Problem, op *dsl.Operator, size int) *dsl.Node {
	n := &dsl.Node{Op: op, Var: -1, Size: size}
	for i := range p.B.Types {
		n.Kids = append(n.Kids, &dsl.Node{Var: i, Size: 1})
	}
	return n
}

// offer hands a sketch's program to consider with its values on every
// environment (examples and proposal candidates).
func offer(en *sketchRun, n *dsl.Node, consider func(*dsl.Node, []any) bool) bool {
	vals := make([]any, len(en.envs))
	for i, env := range en.envs {
		vals[i] = dsl.EvalSafe(n, env)
	}
	return consider(n, vals)
}

// fillSketch checks the fillings of a sketch on the examples in order and
// hands the first that fits every example to consider, with its values on
// every environment; it reports whether consider accepted one.
func fillSketch[F any](en *sketchRun, p *dsl.Problem, fills []F, run func(f F, env []any) any, prog func(f F) *dsl.Node,
	consider func(*dsl.Node, []any) bool) bool {
	for _, f := range fills {
		fits := true
		for i := range p.Outs {
			if !p.MatchesAt(i, run(f, p.Envs[i])) {
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
