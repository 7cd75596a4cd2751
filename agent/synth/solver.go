package synth

import (
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// A session's search is a solver: the enumerator's search of the whole
// problem, a split of the problem into parts each searched on its own
// (split.go), or alternatives tried in turn (the whole, then the split).
// A solver stopped by its clock goes on where it stopped when given more
// time (a later session on the same examples).

// solver finds a program for a problem within budgets.
type solver interface {
	// solve runs the solver (the first call) or goes on with it (later
	// calls) within the budget; the result counts the programs evaluated
	// by every call so far.
	solve(b budget) searchResult
	// resumable reports whether the solver stopped on its clock with
	// nothing found and something left to try.
	resumable() bool
	// close gives the memory of the solver's searches back to the
	// session's budget (memory.go): nothing may use it after, nor a
	// result of its that was not detached (searchResult.detached).
	close()
}

// budget bounds one call of a solver: a deadline (zero: none), or, when
// maxPrograms is set, the programs it may evaluate; done cancels it.
type budget struct {
	deadline    time.Time
	maxPrograms int64
	done        <-chan struct{}
}

// share is the part frac of what is left of b once used programs are
// spent (programs budgets; time budgets count from now).
func (b budget) share(frac float64, used int64) budget {
	out := b
	if b.maxPrograms > 0 {
		out.maxPrograms = max(int64(float64(b.maxPrograms-used)*frac), 1)
		return out
	}
	if !b.deadline.IsZero() {
		left := time.Until(b.deadline)
		out.deadline = time.Now().Add(time.Duration(float64(left) * frac))
	}
	return out
}

// spent reports whether nothing is left of b once used programs are
// spent, or when it was cancelled.
func (b budget) spent(used int64) bool {
	if b.done != nil {
		select {
		case <-b.done:
			return true
		default:
		}
	}
	if b.maxPrograms > 0 {
		if used >= b.maxPrograms {
			return true
		}
		return !b.deadline.IsZero() && time.Now().After(b.deadline)
	}
	return !b.deadline.IsZero() && !time.Now().Before(b.deadline)
}

// budgetOf is the budget a search spec sets.
func budgetOf(spec searchSpec) budget {
	return budget{deadline: spec.deadline, maxPrograms: spec.maxPrograms, done: spec.done}
}

// wholeSolver is the enumerator's search of the whole problem, made at
// its first call.
// Once it cannot go on, its search (and its bank) is let go.
type wholeSolver struct {
	p        *dsl.Problem
	spec     searchSpec
	s        *searcher
	finished bool
	last     searchResult
}

func (w *wholeSolver) solve(b budget) searchResult {
	switch {
	case w.finished:
		return w.last
	case w.s == nil:
		spec := w.spec
		spec.deadline, spec.maxPrograms, spec.done = b.deadline, b.maxPrograms, b.done
		w.s = newSearcher(w.p, spec)
		w.last = w.s.run()
	default:
		w.last = w.s.resume(b.deadline, b.maxPrograms, b.done)
	}
	if !w.s.resumable() {
		w.last = w.s.close()
		w.s, w.finished = nil, true
	}
	return w.last
}

func (w *wholeSolver) resumable() bool { return !w.finished }

func (w *wholeSolver) close() {
	if w.s != nil {
		w.s.close()
		w.s = nil
	}
	w.finished = true
}

// alternatives tries solvers in turn, each with its share of what is
// left (the last with all of it), until one solves the problem; going on,
// it goes on with those still resumable, in the same order.
type alternatives struct {
	alts   []solver
	shares []float64
	done   []searchResult
	ran    []bool
}

func newAlternatives(alts []solver, shares []float64) *alternatives {
	return &alternatives{alts: alts, shares: shares, done: make([]searchResult, len(alts)), ran: make([]bool, len(alts))}
}

// evaluated is the programs every alternative evaluated so far.
func (a *alternatives) evaluated() int64 {
	var n int64
	for _, r := range a.done {
		n += r.evaluated
	}
	return n
}

func (a *alternatives) solve(b budget) searchResult {
	var used int64
	var best searchResult
	var live []int
	for i, s := range a.alts {
		if !a.ran[i] || s.resumable() {
			live = append(live, i)
		}
	}
	for k, i := range live {
		if b.spent(used) {
			break
		}
		frac := a.shares[i]
		if k == len(live)-1 {
			frac = 1
		}
		r := a.alts[i].solve(b.share(frac, used))
		a.ran[i] = true
		used += r.evaluated - a.done[i].evaluated
		a.done[i] = r
		if r.solved {
			r.evaluated = a.evaluated()
			return r
		}
	}
	for _, r := range a.done {
		if r.best != nil && (best.best == nil || r.passed > best.passed) {
			best = r
		}
	}
	best.evaluated = a.evaluated()
	return best
}

func (a *alternatives) close() {
	for _, s := range a.alts {
		s.close()
	}
}

func (a *alternatives) resumable() bool {
	for i, s := range a.alts {
		if !a.ran[i] || s.resumable() {
			return true
		}
	}
	return false
}
