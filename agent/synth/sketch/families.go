package sketch

import (
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Families runs the strategies for programs the levels do not reach
// (after size 4, after the sweeps): the recurrence sketch over an integer
// (dp.go), the digit-loop sketch (digits.go), the stack sketch (stack.go),
// the scan of a string's brackets (brackets.go), the state-machine search
// (state.go), error diffusion (diffusion.go), the position-wise
// decomposition of list transducers (window.go), the recurrences over a
// list's elements (listdp.go), the tables over two sequences' prefixes
// (align.go), two sequences compared at every shift (shifts.go) or by a
// key (samekey.go), the
// decomposition of a list of indices (indices.go) and the scan of
// neighbours (neighbours.go), the first pair of indices for which a
// condition holds (pairs.go), then the word-wise decomposition of strings
// (words.go) and their order (wordorder.go), the character map and fold
// (charmap.go, charfold.go), sentences, lines and words counted or
// measured (segments.go), greedy wrapping (wrap.go), the map with a
// running state (statemap.go) and the
// decomposition into fixed-width units (chunks.go), the validator of a
// fixed-width text (pattern.go) and the weighted digit-sum checksum of a
// code (checksum.go) and the value guarded by a condition, None elsewhere
// (guard.go). It reports whether
// consider accepted a program.
func Families(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	return DP(en, p, consider) || Orbit(en, p, consider) || Digits(en, p, consider) || DigitValue(en, p, 0.1, consider) || Stack(en, p, consider) || Interp(en, p, consider) || Brackets(en, p, consider) ||
		StateMachine(en, p, 0.15, consider) || Diffusion(en, p, consider) || Positionwise(en, p, 0.6, consider) || ListDP(en, p, consider) || Align(en, p, consider) || Shifts(en, p, consider) || SameKey(en, p, consider) ||
		Indices(en, p, consider) || NeighbourIndices(en, p, consider) || FirstIndex(en, p, consider) || FirstPair(en, p, consider) || Wordwise(en, p, consider) || WordOrder(en, p, consider) || CharMap(en, p, consider) || CharFold(en, p, consider) ||
		Segments(en, p, consider) || Wrap(en, p, consider) || StateMap(en, p, 0.1, consider) ||
		Chunkwise(en, p, consider) || Pattern(en, p, consider) || Checksum(en, p, consider) || Guard(en, p, consider)
}

// LastResort runs the sketches that fit too easily to stand beside the
// programs the levels enumerate, when a search ends with nothing
// consistent: the character table (chartable.go). A
// program that fits lets the run go on with more examples, where a partial
// one would stall it. It reports whether consider accepted a program.
func LastResort(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	return CharTable(en, p, consider)
}

// Search is what a sketch reads of the search that runs it. Stopped and
// Cancelled start as the search's and carry back what interrupted
// learned.
type Search struct {
	// Envs are the environments a program's values are computed on: the
	// examples', then the proposal candidates'.
	Envs [][]any
	// Deadline, Done and MemLimit bound the search: a sketch takes a share
	// of the time left, stops when Done is closed, and gives its holes a
	// part of the memory.
	Deadline time.Time
	Done     <-chan struct{}
	MemLimit int64
	// Lambdas are the lambda banks of the task.
	Lambdas *dsl.Lambdas
	// Holes fills a sketch's holes: the search's enumerator.
	Holes Holes
	// Stopped says the search is stopped (its clock, its budget or a
	// cancellation), Cancelled that Done was closed.
	Stopped, Cancelled bool
	// Collect says the search collects the rivals of a proposal: a
	// sketch may then also offer programs that differ from its own only
	// where the examples say nothing (a character no example showed), so
	// that the proposal asks there.
	Collect bool
	// MaxEval is the programs left in the search's budget when it counts
	// programs rather than time (0: it does not); a sketch that counts
	// its own work adds it to Evaluated, which the search adds to its
	// count, so that a loaded machine finds what an idle one does.
	MaxEval, Evaluated int64
}

// interrupted reports whether the search was cancelled, and stops it then.
func (r *Search) interrupted() bool {
	if r.Done == nil {
		return false
	}
	select {
	case <-r.Done:
		r.Stopped, r.Cancelled = true, true
		return true
	default:
		return false
	}
}

// Holes fills the holes of a sketch; the search that runs the sketches
// implements it with its enumerator.
type Holes interface {
	// Fill enumerates programs over the sub-problem's variables level by
	// level up to h.MaxSize and returns the first consistent with every
	// data point, or nil. Unlike a whole search it runs no strategies,
	// only a short staged sweep after size 4 when h.sweep is set (a count
	// or sum over a window with a lambda), and, when h.conds is set,
	// after each size from 3 the conditional "t if c else e" of two small
	// programs each right on part of the data points: a state that
	// changes only on some inputs, a value that depends on the index's
	// parity.
	Fill(sub *dsl.Problem, h Hole) *dsl.Node
}

// Hole bounds the search for a sketch's hole. accept, when not nil, says
// whether a program's values on the sub-problem's environments fill the
// hole (the sub-problem's outputs are then those the conditionals split,
// if any): a hole whose values are joined before they are compared.
// MaxEval, when set, bounds the search by programs evaluated too, so that
// a loaded machine finds what an idle one does before the deadline.
type Hole struct {
	Deadline     time.Time
	MaxEval      int64
	Done         <-chan struct{}
	MaxSize      int
	Mem          int64
	Sweep, Conds bool
	Accept       func(e *dsl.Entry) bool
}

// holeSearch fills a hole of at most MaxSize by the run's enumerator.
func (r *Search) holeSearch(sub *dsl.Problem, deadline time.Time, done <-chan struct{}, maxSize int, mem int64, sweep, conds bool) *dsl.Node {
	return r.Holes.Fill(sub, Hole{Deadline: deadline, Done: done, MaxSize: maxSize, Mem: mem, Sweep: sweep, Conds: conds})
}

// holeSearchBy is holeSearch with the other bounds of a hole.
func (r *Search) holeSearchBy(sub *dsl.Problem, deadline time.Time, maxEval int64, done <-chan struct{}, maxSize int, mem int64, sweep, conds bool,
	accept func(e *dsl.Entry) bool) *dsl.Node {
	return r.Holes.Fill(sub, Hole{Deadline: deadline, MaxEval: maxEval, Done: done, MaxSize: maxSize, Mem: mem, Sweep: sweep, Conds: conds, Accept: accept})
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
func offer(en *Search, n *dsl.Node, consider func(*dsl.Node, []any) bool) bool {
	vals := make([]any, len(en.Envs))
	for i, env := range en.Envs {
		vals[i] = dsl.EvalSafe(n, env)
	}
	return consider(n, vals)
}

// fillSketch checks the fillings of a sketch on the examples in order and
// hands the first that fits every example to consider, with its values on
// every environment; it reports whether consider accepted one.
func fillSketch[F any](en *Search, p *dsl.Problem, fills []F, run func(f F, env []any) any, prog func(f F) *dsl.Node,
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
		vals := make([]any, len(en.Envs))
		for i, env := range en.Envs {
			vals[i] = run(f, env)
		}
		if consider(prog(f), vals) {
			return true
		}
	}
	return false
}
